import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every charge writes one events row at its commit, and each index on events is one more write there. Two are read
 * by no query: the object lookups (the finance console's, the version order) name the object's type and go through
 * the unique (object_type, object_id, object_version), and nothing scans by created_at alone (the feed's 30 days go
 * through ix_events_feed; a retention job, when there is one, brings the index it needs).
 */
export class LeanerEventIndexes1764680354000 implements MigrationInterface {
  name = 'LeanerEventIndexes1764680354000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_events_object`);
    await q.query(`DROP INDEX ix_events_created`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_events_created ON events (created_at)`);
    await q.query(`CREATE INDEX ix_events_object ON events (object_id, object_version)`);
  }
}
