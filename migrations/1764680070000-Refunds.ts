import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds: money back through the same attempt model. A refund attempt is a row of `charge_attempts` with
 * `operation = 'refund'` (one state machine, one sender, one resolver, one review queue), and the partial
 * unique indexes that guarantee "one open attempt" and "one success" become per operation. The charge row
 * carries what refunds have committed, and a CHECK keeps it within the captured amount under any concurrency.
 */
export class Refunds1764680070000 implements MigrationInterface {
  name = 'Refunds1764680070000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refunds (
        id uuid PRIMARY KEY,
        charge_id uuid NOT NULL CONSTRAINT refunds_charge_id_fkey REFERENCES charges(id),
        amount_cents bigint NOT NULL CONSTRAINT refunds_amount_cents_check CHECK (amount_cents > 0),
        currency char(3) NOT NULL,
        reason text,
        created_by text NOT NULL,
        proposal_id uuid,
        released_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_refunds_charge ON refunds (charge_id, created_at)`);
    // A refund proposal (reconciliation, review) executes at most once, however often it is approved.
    await q.query(`CREATE UNIQUE INDEX uq_refunds_proposal ON refunds (proposal_id) WHERE proposal_id IS NOT NULL`);
    // What open or succeeded refunds hold of the captured amount: never more than the charge, whoever races.
    await q.query(`ALTER TABLE charges ADD COLUMN refund_committed_cents bigint NOT NULL DEFAULT 0`);
    await q.query(`
      ALTER TABLE charges ADD CONSTRAINT charges_refund_committed_cents_check
        CHECK (refund_committed_cents >= 0 AND refund_committed_cents <= amount_cents)`);
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN operation text NOT NULL DEFAULT 'charge'`);
    await q.query(`ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_operation_check CHECK (operation IN ('charge','refund'))`);
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN refund_id uuid CONSTRAINT charge_attempts_refund_id_fkey REFERENCES refunds(id)`);
    await q.query(`
      ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_refund_id_check
        CHECK ((operation = 'refund' AND refund_id IS NOT NULL) OR (operation <> 'refund' AND refund_id IS NULL))`);
    // One open attempt and one success per charge, now counting charge attempts only; the same per refund.
    await q.query(`DROP INDEX uq_charge_attempts_open_per_charge`);
    await q.query(`DROP INDEX uq_charge_attempts_one_success_per_charge`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_open_per_charge
        ON charge_attempts (charge_id) WHERE status IN ('pending','unknown') AND operation = 'charge'`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_charge
        ON charge_attempts (charge_id) WHERE status = 'succeeded' AND operation = 'charge'`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_open_per_refund
        ON charge_attempts (refund_id) WHERE status IN ('pending','unknown') AND operation = 'refund'`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_refund
        ON charge_attempts (refund_id) WHERE status = 'succeeded' AND operation = 'refund'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX uq_charge_attempts_one_success_per_refund`);
    await q.query(`DROP INDEX uq_charge_attempts_open_per_refund`);
    await q.query(`DROP INDEX uq_charge_attempts_one_success_per_charge`);
    await q.query(`DROP INDEX uq_charge_attempts_open_per_charge`);
    await q.query(`DELETE FROM review_items WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation <> 'charge')`);
    await q.query(`UPDATE webhook_events SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation <> 'charge')`);
    await q.query(`DELETE FROM provider_calls WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation <> 'charge')`);
    await q.query(`DELETE FROM attempt_transitions WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation <> 'charge')`);
    await q.query(`DELETE FROM charge_attempts WHERE operation <> 'charge'`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_open_per_charge
        ON charge_attempts (charge_id) WHERE status IN ('pending','unknown')`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_charge
        ON charge_attempts (charge_id) WHERE status = 'succeeded'`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_refund_id_check`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN refund_id`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_operation_check`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN operation`);
    await q.query(`ALTER TABLE charges DROP CONSTRAINT charges_refund_committed_cents_check`);
    await q.query(`ALTER TABLE charges DROP COLUMN refund_committed_cents`);
    await q.query(`DROP TABLE refunds`);
  }
}
