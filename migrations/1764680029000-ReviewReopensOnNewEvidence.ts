import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A finding that reaches an item a reviewer is deciding sends it back to the queue, and the trail says so. */
export class ReviewReopensOnNewEvidence1764680029000 implements MigrationInterface {
  name = 'ReviewReopensOnNewEvidence1764680029000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE review_audit DROP CONSTRAINT review_audit_action_check`);
    await q.query(`ALTER TABLE review_audit ADD CONSTRAINT review_audit_action_check CHECK (action IN ('claim','release','decide','confirm','reject','escalate','reopen'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE review_audit DROP CONSTRAINT review_audit_action_check`);
    await q.query(`ALTER TABLE review_audit ADD CONSTRAINT review_audit_action_check CHECK (action IN ('claim','release','decide','confirm','reject','escalate'))`);
  }
}
