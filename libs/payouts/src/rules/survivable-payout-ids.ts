import { nameBasedUuid } from '@app/common';

/**
 * Payout ids that outlive a lost commit or a lost response. An asynchronous PostgreSQL failover can lose the commit
 * that reserved a payout and opened its attempt after the transfer already reached Efí; a process killed after that
 * commit leaves its Idempotency-Key record in flight, to be taken over by the retry. Either way the retry runs the
 * create again. Derived from what the retry carries again (the caller, the account and its Idempotency-Key), the
 * payout is the same payout: found and answered when its row survived, opened again with the lost attempt's id,
 * and so the same idEnvio, when it did not, and Efí (idempotent by idEnvio) never executes a second transfer.
 */
// Never changed: an id derived before a change would no longer match the one derived after it.
const PAYOUT_ONCE_NAMESPACE = '9b934e7a-968d-5992-a19a-9e630d325da8';

// A JSON array as the name: no caller's text can run into the next part (a key holding the separator).
const named = (...parts: Array<string | number>) => nameBasedUuid(PAYOUT_ONCE_NAMESPACE, JSON.stringify(parts));

/** The payout a caller (its idempotency scope) asked of an account under an Idempotency-Key. */
export function payoutIdOf(callerScope: string, accountId: string, idempotencyKey: string): string {
  return named('payout', callerScope, accountId, idempotencyKey);
}

/** The payout a confirmed four-eyes request opens: one per request, whoever confirms it and however often. */
export function confirmedPayoutIdOf(requestId: string): string {
  return named('payout-request', requestId);
}

/**
 * The payout's attempt number `sequence` (0 for the first). It is also the attempt's idempotency key: the Efí idEnvio
 * is the key, and a lookup, a webhook or a statement line names its attempt by reversing that idEnvio to the id.
 */
export function payoutAttemptIdOf(payoutId: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new Error(`attempt sequence must be a whole number; got ${sequence}`);
  return named('payout-attempt', payoutId, sequence);
}
