import type { EntityManager } from 'typeorm';
import { writeReviewAudit } from './review-audit.writer.js';

/**
 * What a statement line settling an unknown attempt answers: whether the attempt's charge exists. Nothing else:
 * a second provider charge, another amount or a bad payload is still a person's to decide.
 */
const ANSWERED_BY_A_LINE = ['tries_exhausted', 'absence_unprovable'];

/**
 * What reconciliation asks of the review queue: once the statement has settled an attempt, the
 * item a person was asked to decide about it is closed, with the statement line as its evidence, in the
 * same transaction as the attempt's transition, with an audit row saying who closed it and why. Only an item
 * whose question the line answers (ANSWERED_BY_A_LINE); any other stays open with the line added to its evidence.
 */
export async function closeOpenReviewItem(
  em: EntityManager,
  attemptId: string,
  providerChargeId: string,
  evidence: Record<string, unknown>,
): Promise<boolean> {
  // TypeORM answers an UPDATE with [rows, rowCount].
  const [rows] = await em.query<[Array<{ id: string; before: string }>, number]>(
    `UPDATE review_items r
        SET state = 'closed', decision = 'succeeded', decision_provider_charge_id = $2,
            decision_reason = 'settled by reconciliation: the provider statement shows the charge',
            decided_by = 'reconciliation', decided_at = now(), closed_at = now(), updated_at = now(),
            claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL,
            evidence = r.evidence || jsonb_build_object('reconciliation', $3::jsonb)
       FROM (SELECT id, state FROM review_items WHERE attempt_id = $1 AND state <> 'closed' AND reason = ANY($4::text[]) FOR UPDATE) old
      WHERE r.id = old.id
      RETURNING r.id, old.state AS before`,
    [attemptId, providerChargeId, JSON.stringify(evidence), ANSWERED_BY_A_LINE],
  );
  // An item the line does not answer keeps waiting for its person, now with the line as evidence too.
  await em.query(
    `UPDATE review_items SET evidence = evidence || jsonb_build_object('reconciliation', $2::jsonb), updated_at = now()
      WHERE attempt_id = $1 AND state <> 'closed' AND NOT (reason = ANY($3::text[]))`,
    [attemptId, JSON.stringify(evidence), ANSWERED_BY_A_LINE],
  );
  for (const row of rows) {
    await writeReviewAudit(em, { reviewItemId: row.id, actor: 'reconciliation', action: 'decide', decision: 'succeeded', reason: 'the provider statement shows the charge', stateBefore: row.before, stateAfter: 'closed', evidence });
  }
  return rows.length > 0;
}

/**
 * A run of a day that had left the catch-up window unreconciled (a `reconciliation_gap` item) has now succeeded:
 * the question the item asked is answered, so it closes in the run's own commit, with the run as its evidence.
 */
export async function closeGapReviewItem(em: EntityManager, run: { id: string; provider: string; day: string }): Promise<void> {
  const [rows] = await em.query<[Array<{ id: string; before: string }>, number]>(
    `UPDATE review_items r
        SET state = 'closed', decision = 'acknowledge', decision_reason = $3,
            decided_by = 'reconciliation', decided_at = now(), closed_at = now(), updated_at = now(),
            claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL
       FROM (SELECT id, state FROM review_items WHERE gap_provider = $1 AND gap_day = $2 AND state <> 'closed' FOR UPDATE) old
      WHERE r.id = old.id
      RETURNING r.id, old.state AS before`,
    [run.provider, run.day, `reconciled by run ${run.id}`],
  );
  for (const row of rows) {
    await writeReviewAudit(em, { reviewItemId: row.id, actor: 'reconciliation', action: 'decide', decision: 'acknowledge', reason: 'a run of the day succeeded', stateBefore: row.before, stateAfter: 'closed', evidence: { runId: run.id } });
  }
}
