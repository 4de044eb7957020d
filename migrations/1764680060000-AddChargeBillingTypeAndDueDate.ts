import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Providers that need them (Asaas): how the customer pays, and when the charge falls due. */
export class AddChargeBillingTypeAndDueDate1764680060000 implements MigrationInterface {
  name = 'AddChargeBillingTypeAndDueDate1764680060000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges ADD COLUMN billing_type text, ADD COLUMN due_date date`);
    await q.query(`ALTER TABLE charges ADD CONSTRAINT charges_billing_type_check CHECK (billing_type IN ('PIX','BOLETO','CREDIT_CARD'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges DROP CONSTRAINT charges_billing_type_check`);
    await q.query(`ALTER TABLE charges DROP COLUMN due_date, DROP COLUMN billing_type`);
  }
}
