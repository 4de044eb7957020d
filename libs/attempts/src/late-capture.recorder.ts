import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import type { LockedAttempt } from './charge-lock.query.js';
import type { ProviderFact } from './rules/provider-fact.js';

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
 * `uq_charge_attempts_one_capture_per_charge` refuses a second success-bearing attempt of the charge.
 */
export async function recordLateCapture(em: EntityManager, attempt: LockedAttempt, fact: ProviderFact, source: { cause: string; actor: string }): Promise<LateCaptureRecording> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'charge' || attempt.status !== 'failed') return 'not_a_capture';
  // A capture of another amount is not this charge's payment: it stays an amount_mismatch for a person (who gives
  // it back through refund_needed, for the amount the provider really holds).
  if (!sameMoney(fact, attempt)) return 'not_a_capture';
  const written = await uniqueOrNull(em, async () => {
    const [rows] = await em.query<[unknown[], number]>(
      `UPDATE charge_attempts
          SET late_captured_at = COALESCE(late_captured_at, now()), late_capture_provider_charge_id = $2, updated_at = now()
        WHERE id = $1 AND operation = 'charge' AND status = 'failed'
          AND (late_capture_provider_charge_id IS NULL OR late_capture_provider_charge_id = $2)
        RETURNING id`,
      [attempt.id, fact.providerChargeId],
    );
    return rows.length === 1;
  });
  if (!written) return 'second_capture';
  await parkOpenSiblings(em, attempt, fact.providerChargeId, source);
  return 'recorded';
}

/**
 * Another attempt of the charge still `pending` and not on the wire (a retry waiting for its backoff) must never
 * be sent now: it becomes `unknown`, so only a query resolves it (the sweeper schedules it). One on the wire keeps
 * its lease; its result meets the capture through the applier (a second capture goes to a person).
 */
async function parkOpenSiblings(em: EntityManager, attempt: LockedAttempt, providerChargeId: string, source: { cause: string; actor: string }): Promise<void> {
  await em.query(
    `WITH parked AS (
       UPDATE charge_attempts SET status = 'unknown', unknown_since = now(), next_send_at = NULL, updated_at = now()
        WHERE charge_id = $1 AND operation = 'charge' AND id <> $2 AND status = 'pending' AND lease_expires_at IS NULL
        RETURNING id)
     INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
     SELECT id, 'pending', 'unknown', $3, $4, jsonb_build_object('reason', 'charge_captured_by_another_attempt', 'capturedBy', $2::text, 'providerChargeId', $5::text)
       FROM parked`,
    [attempt.chargeId, attempt.id, source.cause, source.actor, providerChargeId],
  );
}

/** The fact's money is the attempt's, where the fact says (a late response to our own request names none). */
export function sameMoney(fact: ProviderFact, attempt: LockedAttempt): boolean {
  const amountAgrees = fact.amountCents === null || fact.amountCents === attempt.amountCents;
  const currencyAgrees = fact.currency === null || fact.currency.toLowerCase() === attempt.currency.toLowerCase();
  return amountAgrees && currencyAgrees;
}
