import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What late provider facts need to be kept: when a send really ended (the grace for a strongly consistent
 * "not found" counts from there), when a failed-as-not-found attempt was queried once more before a new
 * attempt opened, and the refunds and disputes the provider reported for a charge.
 */
export class LateTruths1764680010000 implements MigrationInterface {
  name = 'LateTruths1764680010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN last_send_ended_at timestamptz`);
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN rechecked_at timestamptz`);
    await q.query(`ALTER TABLE charges ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE charges ADD CONSTRAINT charges_refunded_cents_check CHECK (refunded_cents >= 0)`);
    await q.query(`ALTER TABLE charges ADD COLUMN dispute_status text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges DROP COLUMN dispute_status`);
    await q.query(`ALTER TABLE charges DROP CONSTRAINT charges_refunded_cents_check`);
    await q.query(`ALTER TABLE charges DROP COLUMN refunded_cents`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN rechecked_at`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN last_send_ended_at`);
  }
}
