import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A late refund success counts in the refund cap for what the provider says it refunded, not for what we had
 * asked: its amount is recorded beside it. Late refunds recorded before this migration were recorded only when
 * the amounts agreed, so their refund's amount is theirs.
 */
export class LateRefundAmount1764680392000 implements MigrationInterface {
  name = 'LateRefundAmount1764680392000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts ADD COLUMN late_refund_amount_cents bigint`);
    await q.query(
      `UPDATE attempts a SET late_refund_amount_cents = r.amount_cents FROM refunds r
        WHERE r.id = a.refund_id AND a.late_refunded_at IS NOT NULL`,
    );
    await q.query(
      `ALTER TABLE attempts ADD CONSTRAINT attempts_late_refund_amount_check
         CHECK ((late_refunded_at IS NULL) = (late_refund_amount_cents IS NULL) AND (late_refund_amount_cents IS NULL OR late_refund_amount_cents > 0))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts DROP CONSTRAINT attempts_late_refund_amount_check`);
    await q.query(`ALTER TABLE attempts DROP COLUMN late_refund_amount_cents`);
  }
}
