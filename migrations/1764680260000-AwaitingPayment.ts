import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A created boleto or Pix that waits for its payer is not an unknown: its attempt stays open (`unknown`, so the
 * one-open-attempt index still holds the charge) and records until when the customer may still pay. The resolver
 * counts no tries against it before then, and the sweeper wakes it no earlier.
 */
export class AwaitingPayment1764680260000 implements MigrationInterface {
  name = 'AwaitingPayment1764680260000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN awaiting_payment_until timestamptz`);
    await q.query(`
      ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_awaiting_payment_check
        CHECK (awaiting_payment_until IS NULL OR (operation = 'charge' AND provider_charge_id IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_awaiting_payment_check`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN awaiting_payment_until`);
  }
}
