import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiTokensAndIdempotency1764680001000 implements MigrationInterface {
  name = 'CreateApiTokensAndIdempotency1764680001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('merchant','reviewer','admin')),
        token_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        CONSTRAINT "UQ_api_tokens_name" UNIQUE (name),
        CONSTRAINT "UQ_api_tokens_token_hash" UNIQUE (token_hash)
      )`);
    await q.query(`
      CREATE TABLE idempotency_records (
        scope text NOT NULL,
        key text NOT NULL,
        request_hash char(64) NOT NULL,
        state text NOT NULL CHECK (state IN ('in_flight','completed')),
        response_status int,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_records`);
    await q.query(`DROP TABLE api_tokens`);
  }
}
