import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A redeliver asked for while a try is in flight (its row leased, still `pending`) must not be lost when that try
 * settles the row `delivered`: the request is kept on the row, the settle leaves the row due instead, and the next
 * claim (which sends the event again under the same webhook-id) takes it down.
 */
export class RedeliverInFlight1764680356000 implements MigrationInterface {
  name = 'RedeliverInFlight1764680356000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN redeliver_requested boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN redeliver_requested`);
  }
}
