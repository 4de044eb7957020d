import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payout an admin sends from a merchant's account at or above REVIEW_FOUR_EYES_AMOUNT_CENTS waits for a second
 * person, in the table and under the rules large credits already use (`ledger_credit_requests`: one row per asked
 * movement, `confirmed_by <> requested_by` in its CHECK). A payout request keeps what the payout will send, and
 * the payout its confirmation created (exactly one: the unique index).
 */
export class PayoutFourEyes1764680378000 implements MigrationInterface {
  name = 'PayoutFourEyes1764680378000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_credit_requests ADD COLUMN kind text NOT NULL DEFAULT 'credit', ADD COLUMN payout jsonb, ADD COLUMN payout_id uuid`);
    await q.query(`ALTER TABLE ledger_credit_requests ADD CONSTRAINT ledger_credit_requests_payout_id_fkey FOREIGN KEY (payout_id) REFERENCES payouts(id)`);
    await q.query(
      `ALTER TABLE ledger_credit_requests ADD CONSTRAINT ledger_credit_requests_kind_check
         CHECK ((kind = 'credit' AND payout IS NULL AND payout_id IS NULL)
             OR (kind = 'payout' AND payout IS NOT NULL AND (state = 'confirmed') = (payout_id IS NOT NULL)))`,
    );
    await q.query(`CREATE UNIQUE INDEX uq_ledger_credit_requests_payout ON ledger_credit_requests (payout_id) WHERE payout_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM ledger_credit_requests WHERE kind = 'payout'`);
    await q.query(`DROP INDEX uq_ledger_credit_requests_payout`);
    await q.query(`ALTER TABLE ledger_credit_requests DROP CONSTRAINT ledger_credit_requests_kind_check`);
    await q.query(`ALTER TABLE ledger_credit_requests DROP CONSTRAINT ledger_credit_requests_payout_id_fkey`);
    await q.query(`ALTER TABLE ledger_credit_requests DROP COLUMN payout_id, DROP COLUMN payout, DROP COLUMN kind`);
  }
}
