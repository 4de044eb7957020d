import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per scheduled job: a conditional update on it lets exactly one worker run each interval. */
export class CreateScheduledRuns1764680003000 implements MigrationInterface {
  name = 'CreateScheduledRuns1764680003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE scheduled_runs (name text PRIMARY KEY, last_started_at timestamptz NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE scheduled_runs`);
  }
}
