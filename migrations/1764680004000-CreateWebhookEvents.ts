import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhookEvents1764680004000 implements MigrationInterface {
  name = 'CreateWebhookEvents1764680004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        attempt_id uuid REFERENCES charge_attempts(id),
        provider_charge_id text,
        disposition text NOT NULL,
        detail jsonb,
        payload jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_webhook_events_provider_event UNIQUE (provider, event_id)
      )`);
    // Reconciliation reads what never matched an attempt.
    await q.query(`CREATE INDEX ix_webhook_events_unmatched ON webhook_events (received_at) WHERE disposition = 'unmatched'`);
    await q.query(`CREATE INDEX ix_webhook_events_attempt ON webhook_events (attempt_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_events`);
  }
}
