import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An admin credit at or above REVIEW_FOUR_EYES_AMOUNT_CENTS moves no balance until a second admin (another
 * person) confirms it: it waits here, and its confirmation writes the ledger's credit entry in the same
 * transaction. The CHECK refuses a confirmation by the person who asked, whatever the code does; the unique
 * reference keeps one request per (account, reference), as the ledger keeps one credit.
 */
export class CreditConfirmations1764680210000 implements MigrationInterface {
  name = 'CreditConfirmations1764680210000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_credit_requests (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        amount_cents bigint NOT NULL,
        reference text NOT NULL,
        requested_by text NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL,
        confirmed_by text,
        confirmed_at timestamptz,
        confirm_reason text,
        CONSTRAINT ledger_credit_requests_account_id_fkey FOREIGN KEY (account_id) REFERENCES ledger_accounts(id),
        CONSTRAINT "UQ_ledger_credit_requests_account_reference" UNIQUE (account_id, reference),
        CONSTRAINT ledger_credit_requests_amount_check CHECK (amount_cents > 0),
        CONSTRAINT ledger_credit_requests_state_check CHECK (state IN ('awaiting_second','confirmed')),
        CONSTRAINT ledger_credit_requests_four_eyes_check CHECK ((state = 'confirmed') = (confirmed_by IS NOT NULL) AND (confirmed_by IS NULL OR confirmed_by <> requested_by))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_credit_requests`);
  }
}
