import { nameBasedUuid } from '@app/common';

/**
 * Refund ids that outlive a lost commit or a lost response, as a charge's do (charges' survivable-ids.ts). A refund
 * asked for under an Idempotency-Key is the same refund each time the key comes back: after a takeover of the key's
 * record (a process died mid-request), and after a failover lost the refund, its attempts and the key's record while
 * the provider already had the request. Its attempt n then has the lost one's id, key and exact bytes, so the
 * provider answers the first refund again instead of making a second. Each attempt has its own number, so a refused
 * try is never what a later attempt replays.
 */
// Never changed: an id derived before a change would no longer match the one derived after it.
const REFUND_ONCE_NAMESPACE = '6b1e4f2a-8c3d-5a9e-b07f-3d5c9a1e2b84';

/**
 * The refund a caller asked for with an Idempotency-Key: `scope` is the key's scope (who asked, on which route), so
 * one key of two merchants, or one key on another charge, is another refund.
 */
export function refundIdOf(scope: string, chargeId: string, idempotencyKey: string): string {
  return nameBasedUuid(REFUND_ONCE_NAMESPACE, `refund\n${scope}\n${chargeId}\n${idempotencyKey}`);
}

/** The one refund that executes a refund proposal (the unique proposal id already allows no second). */
export function proposalRefundIdOf(proposalId: string): string {
  return nameBasedUuid(REFUND_ONCE_NAMESPACE, `refund-proposal\n${proposalId}`);
}

/** The refund's attempt number `sequence` (0 for the first), and the idempotency key it sends with. */
export function refundAttemptIdsOf(refundId: string, sequence: number): { attemptId: string; idempotencyKey: string } {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new Error(`attempt sequence must be a whole number; got ${sequence}`);
  return {
    attemptId: nameBasedUuid(REFUND_ONCE_NAMESPACE, `refund-attempt\n${refundId}\n${sequence}`),
    idempotencyKey: nameBasedUuid(REFUND_ONCE_NAMESPACE, `refund-attempt-key\n${refundId}\n${sequence}`),
  };
}
