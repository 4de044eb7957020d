import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No day goes unreconciled.
 * - A run whose statement is not available yet (Stripe's report type does not cover the day) ends `waiting`: not a
 *   failure (no backoff), and like a failed run it gives the day back to the next tick.
 * - A day that left the catch-up window without a succeeded run becomes a review item about that provider's day
 *   instead of an attempt: exactly one subject per item (the CHECK), and one item per provider and day ever (the
 *   unique index: a person's answer, or the run that reconciled it, closes the question for good).
 */
export class ReconciliationNights1764680230000 implements MigrationInterface {
  name = 'ReconciliationNights1764680230000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reconciliation_runs DROP CONSTRAINT reconciliation_runs_status_check`);
    await q.query(`ALTER TABLE reconciliation_runs ADD CONSTRAINT reconciliation_runs_status_check CHECK (status IN ('running','succeeded','failed','waiting'))`);
    await q.query(`DROP INDEX uq_reconciliation_runs_scheduled`);
    await q.query(`
      CREATE UNIQUE INDEX uq_reconciliation_runs_scheduled ON reconciliation_runs (provider, day, trigger)
        WHERE trigger = 'scheduled' AND status IN ('running','succeeded')`);

    await q.query(`ALTER TABLE review_items ALTER COLUMN attempt_id DROP NOT NULL, ADD COLUMN gap_provider text, ADD COLUMN gap_day date`);
    await q.query(`
      ALTER TABLE review_items ADD CONSTRAINT review_items_subject_check
        CHECK ((attempt_id IS NOT NULL AND gap_provider IS NULL AND gap_day IS NULL AND reason <> 'reconciliation_gap')
            OR (attempt_id IS NULL AND gap_provider IS NOT NULL AND gap_day IS NOT NULL AND reason = 'reconciliation_gap'))`);
    await q.query(`CREATE UNIQUE INDEX uq_review_items_gap ON review_items (gap_provider, gap_day) WHERE gap_day IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Gap items have no attempt, which the older schema cannot hold, and people's decisions on them are append-only
    // evidence: never deleted to make a rollback fit. Refuse while any exists.
    const gaps = (await q.query(`SELECT count(*)::int AS n FROM review_items WHERE attempt_id IS NULL`)) as Array<{ n: number }>;
    if (gaps[0].n > 0) throw new Error(`cannot revert ReconciliationNights: ${gaps[0].n} reconciliation_gap review items exist; their decisions would be lost`);
    await q.query(`DROP INDEX uq_review_items_gap`);
    await q.query(`ALTER TABLE review_items DROP CONSTRAINT review_items_subject_check`);
    await q.query(`ALTER TABLE review_items DROP COLUMN gap_day, DROP COLUMN gap_provider, ALTER COLUMN attempt_id SET NOT NULL`);

    // A waiting run read nothing: it was a try that did not happen, as a failed one would be.
    await q.query(`UPDATE reconciliation_runs SET status = 'failed', error = coalesce(error, 'statement not yet available') WHERE status = 'waiting'`);
    await q.query(`DROP INDEX uq_reconciliation_runs_scheduled`);
    await q.query(`
      CREATE UNIQUE INDEX uq_reconciliation_runs_scheduled ON reconciliation_runs (provider, day, trigger)
        WHERE trigger = 'scheduled' AND status <> 'failed'`);
    await q.query(`ALTER TABLE reconciliation_runs DROP CONSTRAINT reconciliation_runs_status_check`);
    await q.query(`ALTER TABLE reconciliation_runs ADD CONSTRAINT reconciliation_runs_status_check CHECK (status IN ('running','succeeded','failed'))`);
  }
}
