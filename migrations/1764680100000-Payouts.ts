import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pix payouts: money out of a ledger account through the same attempt model. A payout attempt is a row of
 * `charge_attempts` with `operation = 'payout'` and `payout_id` set; it has no charge, so `charge_id` becomes
 * nullable and a CHECK says exactly which owner each operation carries (a charge or refund attempt its charge,
 * a payout attempt its payout and never a charge). One open attempt and one success per payout, like refunds.
 */
export class Payouts1764680100000 implements MigrationInterface {
  name = 'Payouts1764680100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payouts (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL CONSTRAINT payouts_account_id_fkey REFERENCES ledger_accounts(id),
        amount_cents bigint NOT NULL CONSTRAINT payouts_amount_cents_check CHECK (amount_cents > 0),
        currency char(3) NOT NULL,
        provider text NOT NULL,
        pix_key text NOT NULL,
        pix_key_type text NOT NULL CONSTRAINT payouts_pix_key_type_check CHECK (pix_key_type IN ('cpf','cnpj','email','phone','evp')),
        description text,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ix_payouts_account ON payouts (account_id, created_at)`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_operation_check`);
    await q.query(`ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_operation_check CHECK (operation IN ('charge','refund','payout'))`);
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN payout_id uuid CONSTRAINT charge_attempts_payout_id_fkey REFERENCES payouts(id)`);
    // Who owns an attempt, one CHECK for every operation: a charge attempt its charge; a refund attempt its
    // refund (and the refunded charge, unless it executes a proposal for a provider charge of no charge of ours);
    // a payout attempt its payout and no charge.
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_charge_id_check`);
    await q.query(`
      ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_owner_check
        CHECK ((operation = 'charge' AND charge_id IS NOT NULL AND payout_id IS NULL)
            OR (operation = 'refund' AND payout_id IS NULL)
            OR (operation = 'payout' AND payout_id IS NOT NULL AND charge_id IS NULL))`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_open_per_payout
        ON charge_attempts (payout_id) WHERE status IN ('pending','unknown') AND operation = 'payout'`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_one_success_per_payout
        ON charge_attempts (payout_id) WHERE status = 'succeeded' AND operation = 'payout'`);
    await q.query(`CREATE INDEX ix_charge_attempts_payout ON charge_attempts (payout_id, created_at) WHERE payout_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM review_items WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation = 'payout')`);
    await q.query(`UPDATE webhook_events SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation = 'payout')`);
    await q.query(`DELETE FROM provider_calls WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation = 'payout')`);
    await q.query(`DELETE FROM attempt_transitions WHERE attempt_id IN (SELECT id FROM charge_attempts WHERE operation = 'payout')`);
    await q.query(`DELETE FROM charge_attempts WHERE operation = 'payout'`);
    await q.query(`DROP INDEX ix_charge_attempts_payout`);
    await q.query(`DROP INDEX uq_charge_attempts_one_success_per_payout`);
    await q.query(`DROP INDEX uq_charge_attempts_open_per_payout`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_owner_check`);
    await q.query(`ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_charge_id_check CHECK (operation <> 'charge' OR charge_id IS NOT NULL)`);
    await q.query(`ALTER TABLE charge_attempts DROP COLUMN payout_id`);
    await q.query(`ALTER TABLE charge_attempts DROP CONSTRAINT charge_attempts_operation_check`);
    await q.query(`ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_operation_check CHECK (operation IN ('charge','refund'))`);
    await q.query(`DROP TABLE payouts`);
  }
}
