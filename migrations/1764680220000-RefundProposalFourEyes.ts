import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Giving back a large amount takes two people: a refund proposal at or above REVIEW_FOUR_EYES_AMOUNT_CENTS is first
 * approved (`awaiting_second`, `approved_by`) and only executed by a second admin. The CHECK refuses an approver who
 * proposed it, and an executor who approved it, whatever the code does.
 */
export class RefundProposalFourEyes1764680220000 implements MigrationInterface {
  name = 'RefundProposalFourEyes1764680220000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refund_proposals ADD COLUMN approved_by text, ADD COLUMN approved_at timestamptz`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_state_check`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_state_check CHECK (state IN ('proposed','awaiting_second','rejected','executed'))`);
    await q.query(`
      ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_second_person_check
        CHECK ((state = 'awaiting_second') <= (approved_by IS NOT NULL)
               AND (approved_by IS NULL OR (approved_by <> proposed_by AND (decided_by IS NULL OR state = 'rejected' OR decided_by <> approved_by))))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE refund_proposals SET state = 'proposed' WHERE state = 'awaiting_second'`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_second_person_check`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_state_check`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_state_check CHECK (state IN ('proposed','rejected','executed'))`);
    await q.query(`ALTER TABLE refund_proposals DROP COLUMN approved_at, DROP COLUMN approved_by`);
  }
}
