import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reviewer who acknowledges an item with `refund_needed` names the provider charge to give back; that becomes a
 * refund proposal like reconciliation's, executed (once) by an admin's approval. A proposal comes from exactly one
 * source: a divergence, or a review item.
 */
export class ReviewRefundProposals1764680160000 implements MigrationInterface {
  name = 'ReviewRefundProposals1764680160000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refund_proposals ALTER COLUMN divergence_id DROP NOT NULL`);
    await q.query(`ALTER TABLE refund_proposals ADD COLUMN review_item_id uuid CONSTRAINT refund_proposals_review_item_id_fkey REFERENCES review_items(id)`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT uq_refund_proposals_review_item UNIQUE (review_item_id)`);
    await q.query(`ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_source_check CHECK ((divergence_id IS NULL) <> (review_item_id IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE refunds SET proposal_id = NULL WHERE proposal_id IN (SELECT id FROM refund_proposals WHERE review_item_id IS NOT NULL)`);
    await q.query(`DELETE FROM refund_proposals WHERE review_item_id IS NOT NULL`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_source_check`);
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT uq_refund_proposals_review_item`);
    await q.query(`ALTER TABLE refund_proposals DROP COLUMN review_item_id`);
    await q.query(`ALTER TABLE refund_proposals ALTER COLUMN divergence_id SET NOT NULL`);
  }
}
