import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import type { LockedAttempt } from './charge-lock.query.js';
import type { ProviderFact } from './rules/provider-fact.js';
import { markLateCapture, parkOpenSiblings } from './store/attempt-facts.store.js';

/**
 * What recording a provider's capture of an attempt we had failed came to: `recorded` (or already recorded with
 * this provider charge), `second_capture` (the charge or this attempt already holds another capture: a duplicate
 * for a person), or `not_a_capture` (the fact proves no capture of a failed charge attempt).
 */
export type LateCaptureRecording = 'recorded' | 'second_capture' | 'not_a_capture';

/**
 * The provider holds a captured charge for a charge attempt we had failed (a late create, a lost webhook). Its
 * `failed` is never rewritten; the capture is recorded beside it, so the charge reads `succeeded` and never
 * opens another attempt (the trigger of migration 1764680180000 refuses one). Runs under the charge lock the
 * caller took (lockChargeAndAttempt), in its transaction, with the review item the caller opens.
 * `uq_attempts_one_capture_per_charge` refuses a second success-bearing attempt of the charge.
 */
export async function recordLateCapture(em: EntityManager, attempt: LockedAttempt, fact: ProviderFact, source: { cause: string; actor: string }): Promise<LateCaptureRecording> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'charge' || attempt.status !== 'failed') return 'not_a_capture';
  // A capture of another amount is not this charge's payment: it stays an amount_mismatch for a person (who gives
  // it back through refund_needed, for the amount the provider really holds).
  if (!sameMoney(fact, attempt)) return 'not_a_capture';
  const providerChargeId = fact.providerChargeId;
  const written = await uniqueOrNull(em, () => markLateCapture(em, attempt.id, providerChargeId));
  if (!written) return 'second_capture';
  // Another attempt still pending and not on the wire must never be sent now; its result meets the capture otherwise.
  await parkOpenSiblings(em, attempt.chargeId!, attempt.id, providerChargeId, source);
  return 'recorded';
}

/** The fact's money is the attempt's, where the fact says (a late response to our own request names none). */
export function sameMoney(fact: ProviderFact, attempt: LockedAttempt): boolean {
  const amountAgrees = fact.amountCents === null || fact.amountCents === attempt.amountCents;
  const currencyAgrees = fact.currency === null || fact.currency.toLowerCase() === attempt.currency.toLowerCase();
  return amountAgrees && currencyAgrees;
}
