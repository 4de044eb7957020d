import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the provider said the charge's dispute status: events arrive out of order, and Stripe's `appeal_*` reopen a
 * lost dispute, so only an event at least as new as the one kept may move the status (an appeal event delivered
 * after the appeal was finally lost must not reopen it). Null on rows written before, and for providers whose
 * events carry no time: those keep the older rule alone.
 */
export class DisputeStatusAt1764680364000 implements MigrationInterface {
  name = 'DisputeStatusAt1764680364000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges ADD COLUMN dispute_status_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges DROP COLUMN dispute_status_at`);
  }
}
