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
export async function recordLateCapture(em: EntityManager, attempt: LockedAttempt, fact: ProviderFact): Promise<LateCaptureRecording> {
  if (fact.outcome !== 'succeeded' || !fact.providerChargeId || attempt.operation !== 'charge' || attempt.status !== 'failed') return 'not_a_capture';
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
  return written ? 'recorded' : 'second_capture';
}
