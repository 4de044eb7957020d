import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A refund attempt we had failed (declined, or not found) that the provider reports succeeded after all: its
 * `failed` is never rewritten; the provider's refund is recorded beside it, once per attempt and per provider
 * refund, and the refund cap counts its amount from that commit on (no longer only after the nightly run).
 */
export class LateRefundSuccess1764680377000 implements MigrationInterface {
  name = 'LateRefundSuccess1764680377000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts ADD COLUMN late_refunded_at timestamptz, ADD COLUMN late_refund_provider_ref text`);
    await q.query(
      `ALTER TABLE attempts ADD CONSTRAINT attempts_late_refund_check
         CHECK ((late_refunded_at IS NULL) = (late_refund_provider_ref IS NULL) AND (late_refunded_at IS NULL OR (status = 'failed' AND operation = 'refund')))`,
    );
    await q.query(`CREATE UNIQUE INDEX uq_attempts_late_refund_provider_ref ON attempts (provider, late_refund_provider_ref) WHERE late_refund_provider_ref IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_attempts_late_refund_provider_ref`);
    await q.query(`ALTER TABLE attempts DROP CONSTRAINT attempts_late_refund_check`);
    await q.query(`ALTER TABLE attempts DROP COLUMN late_refund_provider_ref, DROP COLUMN late_refunded_at`);
  }
}
