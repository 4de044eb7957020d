import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import type { LockedAttempt } from './charge-lock.query.js';
import { sameMoney } from './late-capture.recorder.js';
import type { ProviderFact } from './rules/provider-fact.js';
import { markLateRefund } from './store/attempt-facts.store.js';

/**
 * The provider refunded for a refund attempt we had failed, whose amount went back to the charge's refundable
 * amount. Its `failed` is never rewritten: the provider's refund is recorded beside it, and from this commit the
 * cap (`holdRefundAmount`) counts its amount again, under the charge row lock the caller took
 * (lockChargeAndAttempt), the lock every refund opener takes first: a refund opened after this commit sees it, one
 * opened before it was already counted. True when recorded now; false when the fact is no executed refund of a
 * failed refund attempt of this amount, or another provider refund was recorded for it (a person decides those).
 */
export async function recordLateRefund(em: EntityManager, attempt: LockedAttempt, fact: ProviderFact): Promise<boolean> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'refund' || attempt.status !== 'failed') return false;
  if (!sameMoney(fact, attempt)) return false;
  const providerRefundId = fact.providerChargeId;
  return (await uniqueOrNull(em, () => markLateRefund(em, attempt.id, providerRefundId))) ?? false;
}
