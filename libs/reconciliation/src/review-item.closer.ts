import type { EntityManager } from 'typeorm';

/**
 * The one write reconciliation makes to the review queue: once the statement has settled an attempt, the
 * item a person was asked to decide about it is closed, with the statement line as its evidence, in the
 * same transaction as the attempt's transition. Written against review_items as it stands today (closed =
 * state 'decided'); the review queue may rename states, and this is the only place to adapt.
 */
export async function closeOpenReviewItem(
  em: EntityManager,
  attemptId: string,
  providerChargeId: string,
  evidence: Record<string, unknown>,
): Promise<boolean> {
  // TypeORM answers an UPDATE with [rows, rowCount].
  const [rows] = await em.query<[unknown[], number]>(
    `UPDATE review_items
        SET state = 'decided', decision = 'succeeded', decision_provider_charge_id = $2,
            decision_reason = 'settled by reconciliation: the provider statement shows the charge',
            decided_by = 'reconciliation', decided_at = now(), updated_at = now(),
            evidence = evidence || jsonb_build_object('reconciliation', $3::jsonb)
      WHERE attempt_id = $1 AND state <> 'decided'
      RETURNING id`,
    [attemptId, providerChargeId, JSON.stringify(evidence)],
  );
  return rows.length > 0;
}
