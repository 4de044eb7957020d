import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A Pix that left after its payout attempt failed (and its reservation was released) is money gone: it is debited
 * late (`late_debit`), and what `available` cannot cover is owed (`owed_cents`), so `available` is never negative
 * and credits − debits = available + reserved − owed. Each entry keeps `owed_after_cents` beside the other
 * running balances. The attempt's `failed` is never rewritten: the execution is recorded beside it, once per
 * transfer (the unique end-to-end id), like a late capture of a charge.
 */
export class PayoutLateDebits1764680250000 implements MigrationInterface {
  name = 'PayoutLateDebits1764680250000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ledger_accounts
        ADD COLUMN owed_cents bigint NOT NULL DEFAULT 0,
        ADD CONSTRAINT ledger_accounts_owed_check CHECK (owed_cents >= 0)`);
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN owed_after_cents bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit','reserve','release','debit','late_debit'))`);
    await q.query(`ALTER TABLE charge_attempts ADD COLUMN late_executed_at timestamptz, ADD COLUMN late_execution_end_to_end_id text`);
    // Both or neither, and only beside a payout attempt's `failed`: a late execution never rewrites the status.
    await q.query(`
      ALTER TABLE charge_attempts ADD CONSTRAINT charge_attempts_late_execution_check
        CHECK ((late_executed_at IS NULL) = (late_execution_end_to_end_id IS NULL)
               AND (late_executed_at IS NULL OR (status = 'failed' AND operation = 'payout')))`);
    await q.query(`
      CREATE UNIQUE INDEX uq_charge_attempts_late_execution_end_to_end_id
        ON charge_attempts (provider, late_execution_end_to_end_id) WHERE late_execution_end_to_end_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // A recorded late debit is money that left: rolling back over one would forget a debt (and, with the attempt's
    // mark gone, let the same transfer be debited again after the next up). Refuse rather than rewrite the ledger.
    const [held] = (await q.query(
      `SELECT EXISTS (SELECT 1 FROM ledger_entries WHERE kind = 'late_debit')
           OR EXISTS (SELECT 1 FROM ledger_accounts WHERE owed_cents > 0)
           OR EXISTS (SELECT 1 FROM charge_attempts WHERE late_executed_at IS NOT NULL) AS held`,
    )) as Array<{ held: boolean }>;
    if (held.held) throw new Error('cannot revert PayoutLateDebits: late debits or debts are recorded; they would be lost');
    await q.query(`DROP INDEX uq_charge_attempts_late_execution_end_to_end_id`);
    await q.query(`
      ALTER TABLE charge_attempts
        DROP CONSTRAINT charge_attempts_late_execution_check,
        DROP COLUMN late_execution_end_to_end_id,
        DROP COLUMN late_executed_at`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit','reserve','release','debit'))`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN owed_after_cents`);
    await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_owed_check, DROP COLUMN owed_cents`);
  }
}
