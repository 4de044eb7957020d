import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Nightly reconciliation: runs (one row per execution of a provider's day, leased so a dead run is taken
 * over), the divergences they find (one row per (provider, kind, subject), so re-runs update rather than
 * duplicate and keep acknowledgements), refund proposals for money the provider took without a success of
 * ours, the refund and dispute lines of the statement, and what the provider says was refunded or disputed.
 */
export class CreateReconciliation1764680030000 implements MigrationInterface {
  name = 'CreateReconciliation1764680030000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reconciliation_runs (
        id uuid PRIMARY KEY,
        provider text NOT NULL,
        day date NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('scheduled','manual')),
        source text NOT NULL CHECK (source IN ('api','report')),
        status text NOT NULL CHECK (status IN ('running','succeeded','failed')),
        requested_by text NOT NULL,
        lease_owner text,
        lease_expires_at timestamptz,
        executions int NOT NULL DEFAULT 0,
        lines_read int NOT NULL DEFAULT 0,
        matched int NOT NULL DEFAULT 0,
        settled int NOT NULL DEFAULT 0,
        divergence_counts jsonb NOT NULL DEFAULT '{}',
        error text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    // The nightly job of a day exists once however many workers fire at 02:00.
    await q.query(`CREATE UNIQUE INDEX uq_reconciliation_runs_scheduled ON reconciliation_runs (provider, day, trigger) WHERE trigger = 'scheduled'`);
    // One run of a provider's day at a time: a second request gets 409 with the running one's id.
    await q.query(`CREATE UNIQUE INDEX uq_reconciliation_runs_running ON reconciliation_runs (provider, day) WHERE status = 'running'`);
    await q.query(`CREATE INDEX ix_reconciliation_runs_provider_day ON reconciliation_runs (provider, day)`);
    await q.query(`CREATE INDEX ix_reconciliation_runs_lease ON reconciliation_runs (lease_expires_at) WHERE status = 'running'`);

    await q.query(`
      CREATE TABLE reconciliation_divergences (
        id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES reconciliation_runs(id),
        kind text NOT NULL CHECK (kind IN ('provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge')),
        provider text NOT NULL,
        day date NOT NULL,
        subject text NOT NULL,
        provider_charge_id text,
        charge_id uuid REFERENCES charges(id),
        attempt_id uuid REFERENCES charge_attempts(id),
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        detail jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('open','acknowledged')),
        note text,
        acknowledged_by text,
        acknowledged_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_reconciliation_divergences_subject UNIQUE (provider, kind, subject)
      )`);
    await q.query(`CREATE INDEX ix_reconciliation_divergences_status ON reconciliation_divergences (status, kind)`);
    await q.query(`
      CREATE TABLE reconciliation_run_divergences (
        run_id uuid NOT NULL REFERENCES reconciliation_runs(id),
        divergence_id uuid NOT NULL REFERENCES reconciliation_divergences(id),
        PRIMARY KEY (run_id, divergence_id)
      )`);

    await q.query(`
      CREATE TABLE refund_proposals (
        id uuid PRIMARY KEY,
        divergence_id uuid NOT NULL REFERENCES reconciliation_divergences(id),
        provider text NOT NULL,
        provider_charge_id text NOT NULL,
        charge_id uuid REFERENCES charges(id),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL,
        reason text NOT NULL,
        state text NOT NULL CHECK (state IN ('proposed','approved','rejected','executed')),
        decided_by text,
        decided_at timestamptz,
        decision_note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_refund_proposals_divergence UNIQUE (divergence_id)
      )`);
    await q.query(`CREATE INDEX ix_refund_proposals_state ON refund_proposals (state, created_at)`);

    await q.query(`
      CREATE TABLE reconciliation_money_movements (
        provider text NOT NULL,
        line_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('refund','dispute','dispute_reversal')),
        provider_charge_id text,
        charge_id uuid REFERENCES charges(id),
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        occurred_at timestamptz NOT NULL,
        run_id uuid NOT NULL REFERENCES reconciliation_runs(id),
        PRIMARY KEY (provider, line_id)
      )`);
    await q.query(`CREATE INDEX ix_reconciliation_money_movements_charge ON reconciliation_money_movements (charge_id)`);

    // What the provider's statement says was refunded or disputed; named apart from our own refund records.
    await q.query(`ALTER TABLE charges ADD COLUMN provider_refunded_cents bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE charges ADD COLUMN provider_disputed_cents bigint NOT NULL DEFAULT 0`);
    // "Our successes of the day" without scanning every attempt ever made.
    await q.query(`CREATE INDEX ix_charge_attempts_succeeded_created ON charge_attempts (provider, created_at) WHERE status = 'succeeded'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_charge_attempts_succeeded_created`);
    await q.query(`ALTER TABLE charges DROP COLUMN provider_disputed_cents`);
    await q.query(`ALTER TABLE charges DROP COLUMN provider_refunded_cents`);
    await q.query(`DROP TABLE reconciliation_money_movements`);
    await q.query(`DROP TABLE refund_proposals`);
    await q.query(`DROP TABLE reconciliation_run_divergences`);
    await q.query(`DROP TABLE reconciliation_divergences`);
    await q.query(`DROP TABLE reconciliation_runs`);
  }
}
