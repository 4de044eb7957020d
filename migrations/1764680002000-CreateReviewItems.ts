import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateReviewItems1764680002000 implements MigrationInterface {
  name = 'CreateReviewItems1764680002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE review_items (
        id uuid PRIMARY KEY,
        attempt_id uuid NOT NULL REFERENCES charge_attempts(id),
        reason text NOT NULL,
        evidence jsonb NOT NULL,
        state text NOT NULL CHECK (state IN ('open','claimed','decided')),
        claimed_by text,
        claimed_at timestamptz,
        decision text CHECK (decision IN ('succeeded','failed')),
        decision_reason text,
        decision_provider_charge_id text,
        decided_by text,
        decided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // However many resolvers give up at once, a person sees one item per attempt.
    await q.query(`CREATE UNIQUE INDEX uq_review_items_open_per_attempt ON review_items (attempt_id) WHERE state <> 'decided'`);
    await q.query(`CREATE INDEX ix_review_items_state ON review_items (state, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE review_items`);
  }
}
