import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A late refund for another amount than ours (late_refund_amount_cents <> refunds.amount_cents) read `succeeded`
 * for our amount while its amount_mismatch item was before a person. It now reads `in_review` until that person
 * closes the item, then `succeeded` (the money did leave). deriveRefundStatus is the same rule.
 */
const STATUS = (amountAware: boolean) => `
CREATE OR REPLACE FUNCTION refund_public_status(p_refund uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT CASE
    WHEN bool_or(a.status = 'succeeded' OR (a.late_refunded_at IS NOT NULL${
      amountAware ? ` AND (a.late_refund_amount_cents IS NULL OR a.late_refund_amount_cents = (SELECT r.amount_cents FROM refunds r WHERE r.id = p_refund))` : ''
    })) THEN 'succeeded'
    WHEN EXISTS (SELECT 1 FROM review_items ri JOIN attempts x ON x.id = ri.attempt_id
                  WHERE x.refund_id = p_refund AND ri.state <> 'closed') THEN 'in_review'
    ${amountAware ? `WHEN bool_or(a.late_refunded_at IS NOT NULL) THEN 'succeeded'` : ''}
    WHEN count(a.id) = 0 OR bool_or(a.status IN ('pending','unknown')) THEN 'processing'
    ELSE 'failed' END
  FROM attempts a WHERE a.refund_id = p_refund AND a.operation = 'refund');
END $$;`;

export class LateRefundAmountInReview1764680395000 implements MigrationInterface {
  name = 'LateRefundAmountInReview1764680395000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(STATUS(true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(STATUS(false));
  }
}
