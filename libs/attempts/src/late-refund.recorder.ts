import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import type { LockedAttempt } from './charge-lock.query.js';
import type { ProviderFact } from './rules/provider-fact.js';
import { markLateRefund } from './store/attempt-facts.store.js';

/** A late refund as recorded: what the provider says it refunded, beside what we had asked for. */
export interface LateRefund {
  providerRefundId: string;
  /** The provider's amount (ours when the fact names none): what the cap counts. */
  amountCents: number;
  requestedCents: number;
}

/**
 * The provider refunded for a refund attempt we had failed, whose amount went back to the charge's refundable
 * amount. Its `failed` is never rewritten: the provider's refund is recorded beside it, and from this commit the
 * cap (`holdRefundAmount`) counts the amount the provider says it refunded, under the charge row lock the caller
 * took (lockChargeAndAttempt), the lock every refund opener takes first: a refund opened after this commit sees it,
 * one opened before it was already counted. An amount other than ours is counted all the same (the money left)
 * and the caller's review item (amount_mismatch) asks a person about the difference. Null when the fact is no
 * executed refund of a failed refund attempt in the refund's currency, or another provider refund was recorded for
 * it (a person decides those).
 */
export async function recordLateRefund(em: EntityManager, attempt: LockedAttempt, fact: ProviderFact): Promise<LateRefund | null> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'refund' || attempt.status !== 'failed') return null;
  // Another currency cannot be counted against this charge's amount: it stays an amount_mismatch for a person.
  if (fact.currency !== null && fact.currency.toLowerCase() !== attempt.currency.toLowerCase()) return null;
  const recorded = { providerRefundId: fact.providerChargeId, amountCents: fact.amountCents ?? attempt.amountCents, requestedCents: attempt.amountCents };
  if (recorded.amountCents <= 0) return null;
  const written = await uniqueOrNull(em, () => markLateRefund(em, attempt.id, recorded.providerRefundId, recorded.amountCents));
  return written ? recorded : null;
}
