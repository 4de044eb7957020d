import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes of webhook_deliveries no query reads: every statement on the queue goes through the endpoint's
 * pending rows (ix_webhook_deliveries_endpoint_due) or the event (the unique (event_id, endpoint_id)). Each row is
 * inserted and then updated out of `pending` once per delivery, and every index on it is written each time: on the
 * submit path with an endpoint configured, fewer is cheaper.
 */
export class LeanerDeliveryIndexes1764680350000 implements MigrationInterface {
  name = 'LeanerDeliveryIndexes1764680350000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_webhook_deliveries_due`);
    await q.query(`DROP INDEX ix_webhook_deliveries_endpoint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at)`);
    await q.query(`CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`);
  }
}
