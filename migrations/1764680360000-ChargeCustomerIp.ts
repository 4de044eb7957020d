import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Asaas takes a card charge with a saved card's token only together with the IP the customer is buying from
 * (`remoteIp`, never our server's): the charge keeps it beside its payment method, so every attempt of the charge
 * encodes the same bytes. Nullable: only Asaas card charges with a token carry one.
 */
export class ChargeCustomerIp1764680360000 implements MigrationInterface {
  name = 'ChargeCustomerIp1764680360000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges ADD COLUMN customer_ip inet`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges DROP COLUMN customer_ip`);
  }
}
