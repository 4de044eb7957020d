import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No day goes unreconciled: a scheduled run that failed no longer holds its day's one scheduled slot, so the next
 * tick can claim the day again (still one scheduled run per provider and day that is running or succeeded, and one
 * running run of a day at a time).
 */
export class ReconciliationCatchUp1764680200000 implements MigrationInterface {
  name = 'ReconciliationCatchUp1764680200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_reconciliation_runs_scheduled`);
    await q.query(`
      CREATE UNIQUE INDEX uq_reconciliation_runs_scheduled ON reconciliation_runs (provider, day, trigger)
        WHERE trigger = 'scheduled' AND status <> 'failed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_reconciliation_runs_scheduled`);
    // Keep one scheduled run per day (the latest), as the older index demands; the others become manual.
    await q.query(`
      UPDATE reconciliation_runs r SET trigger = 'manual'
        FROM (SELECT id, row_number() OVER (PARTITION BY provider, day ORDER BY started_at DESC, id) AS n
                FROM reconciliation_runs WHERE trigger = 'scheduled') d
       WHERE d.id = r.id AND d.n > 1`);
    await q.query(`CREATE UNIQUE INDEX uq_reconciliation_runs_scheduled ON reconciliation_runs (provider, day, trigger) WHERE trigger = 'scheduled'`);
  }
}
