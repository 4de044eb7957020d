import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Names say what things are (issue 25): an attempt's provider id is a payment intent for a charge, a refund id
 * for a refund and an end-to-end id for a Pix payout, so the attempts' `provider_charge_id` becomes `provider_ref`,
 * with its unique constraint. Other tables' `provider_charge_id` name a real provider charge and stay. Indexes
 * and CHECKs follow a column by number, not name, and no PL/pgSQL body names this column.
 */
export class AttemptProviderRef1764680310000 implements MigrationInterface {
  name = 'AttemptProviderRef1764680310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts RENAME COLUMN provider_charge_id TO provider_ref`);
    await q.query(`ALTER TABLE attempts RENAME CONSTRAINT "UQ_attempts_provider_charge_id" TO "UQ_attempts_provider_ref"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts RENAME CONSTRAINT "UQ_attempts_provider_ref" TO "UQ_attempts_provider_charge_id"`);
    await q.query(`ALTER TABLE attempts RENAME COLUMN provider_ref TO provider_charge_id`);
  }
}
