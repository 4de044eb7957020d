import type { EntityManager } from 'typeorm';

/**
 * An open item asked about money the provider only showed as pending (`provider_charge_after_not_found`); now
 * the money moved, so the question becomes `provider_success_after_failure`. Only an item still open with the
 * old question changes: a person's decision on a closed item stands.
 */
export async function reaskAsSuccessAfterFailure(em: EntityManager, attemptId: string): Promise<void> {
  await em.query(
    `UPDATE review_items SET reason = 'provider_success_after_failure', updated_at = now()
      WHERE attempt_id = $1 AND state <> 'closed' AND reason = 'provider_charge_after_not_found'`,
    [attemptId],
  );
}
