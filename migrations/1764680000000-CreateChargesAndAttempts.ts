import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateChargesAndAttempts1764680000000 implements MigrationInterface {
  name = 'CreateChargesAndAttempts1764680000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE charges (
        id uuid PRIMARY KEY,
        order_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency char(3) NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
        customer_id text NOT NULL,
        payment_method_id text,
        provider text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "UQ_charges_order_id" UNIQUE (order_id)
      )`);
    await q.query(`
      CREATE TABLE charge_attempts (
        id uuid PRIMARY KEY,
        charge_id uuid NOT NULL REFERENCES charges(id),
        idempotency_key uuid NOT NULL,
        provider text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending','succeeded','failed','unknown')),
        provider_charge_id text,
        payload text NOT NULL,
        payload_hash char(64) NOT NULL,
        http_attempts int NOT NULL DEFAULT 0,
        last_error jsonb,
        lease_expires_at timestamptz,
        next_send_at timestamptz,
        last_sent_at timestamptz,
        resolution_tries int NOT NULL DEFAULT 0,
        resolved_by text,
        unknown_since timestamptz,
        resolved_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "UQ_charge_attempts_idempotency_key" UNIQUE (idempotency_key),
        CONSTRAINT "UQ_charge_attempts_provider_charge_id" UNIQUE (provider_charge_id)
      )`);
    // The database, not an if, guarantees one open attempt per charge across processes and machines.
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_open_per_charge
        ON charge_attempts (charge_id) WHERE status IN ('pending','unknown')`);
    // A standing guarantee: however an attempt is resolved, a charge has at most one success.
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_charge
        ON charge_attempts (charge_id) WHERE status = 'succeeded'`);
    await q.query(`CREATE INDEX ix_charge_attempts_charge ON charge_attempts (charge_id, created_at)`);
    // The sweeper scans only open attempts.
    await q.query(`
      CREATE INDEX ix_charge_attempts_open ON charge_attempts (status, updated_at)
        WHERE status IN ('pending','unknown')`);
    await q.query(`
      CREATE TABLE attempt_transitions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        attempt_id uuid NOT NULL REFERENCES charge_attempts(id),
        from_status text,
        to_status text NOT NULL,
        cause text NOT NULL CHECK (cause IN ('submit','resolver','webhook','reviewer','reconciliation','sweeper')),
        actor text NOT NULL,
        detail jsonb,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_attempt_transitions_attempt ON attempt_transitions (attempt_id, at)`);
    await q.query(`
      CREATE TABLE provider_calls (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        attempt_id uuid NOT NULL REFERENCES charge_attempts(id),
        kind text NOT NULL,
        outcome text NOT NULL,
        http_status int,
        duration_ms int NOT NULL,
        detail jsonb,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_provider_calls_attempt ON provider_calls (attempt_id, at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_calls`);
    await q.query(`DROP TABLE attempt_transitions`);
    await q.query(`DROP TABLE charge_attempts`);
    await q.query(`DROP TABLE charges`);
  }
}
