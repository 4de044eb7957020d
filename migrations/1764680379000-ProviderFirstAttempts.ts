import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the service first opened an attempt (a charge, refund or payout) with each provider. With the provider's first
 * run (`min(day)` on ix_reconciliation_runs_provider_day), it is where reconciliation begins: days before both are
 * `before_service` in the calendar, and the catch-up window and the gap review never claim them. Kept as a row,
 * not read as `min(created_at)` over attempts, so neither the readers nor the charge hot path need an attempts index:
 * the row is written once (ON CONFLICT DO NOTHING), by a process that then remembers it. Backfilled from the
 * attempts already there (one scan, once).
 */
export class ProviderFirstAttempts1764680379000 implements MigrationInterface {
  name = 'ProviderFirstAttempts1764680379000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE provider_first_attempts (
      provider text PRIMARY KEY,
      first_attempt_at timestamptz NOT NULL
    )`);
    await q.query(`INSERT INTO provider_first_attempts (provider, first_attempt_at) SELECT provider, min(created_at) FROM attempts GROUP BY provider`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_first_attempts`);
  }
}
