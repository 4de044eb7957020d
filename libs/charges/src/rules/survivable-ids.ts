import { nameBasedUuid } from '@app/common';

/**
 * Ids that outlive a lost commit. An asynchronous PostgreSQL failover can lose the last commits, an attempt row
 * whose request already reached the provider among them; the next submit then opens that attempt again. Derived
 * from what survives the loss (the merchant's order id, which the merchant sends again, and the attempt's place
 * among the charge's attempts), the new attempt has the lost one's id, key and therefore exact bytes: the provider
 * answers the first charge again instead of making a second. Each attempt has its own number, so a declined try
 * is never what a later attempt replays.
 */
// Never changed: an id derived before a change would no longer match the one derived after it.
const CHARGE_ONCE_NAMESPACE = '0d9f5a0e-3c4b-5e7a-9b61-6c2f0e8d4a17';

/** The charge of a merchant's order: the same after a lost commit, when the merchant creates it again. */
export function chargeIdOf(merchantId: string, orderId: string): string {
  return nameBasedUuid(CHARGE_ONCE_NAMESPACE, `charge\n${merchantId}\n${orderId}`);
}

/** The charge's attempt number `sequence` (0 for the first), and the idempotency key it sends with. */
export function chargeAttemptIdsOf(chargeId: string, sequence: number): { attemptId: string; idempotencyKey: string } {
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new Error(`attempt sequence must be a whole number; got ${sequence}`);
  return {
    attemptId: nameBasedUuid(CHARGE_ONCE_NAMESPACE, `charge-attempt\n${chargeId}\n${sequence}`),
    idempotencyKey: nameBasedUuid(CHARGE_ONCE_NAMESPACE, `charge-attempt-key\n${chargeId}\n${sequence}`),
  };
}
