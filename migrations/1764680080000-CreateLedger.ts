import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant balances for money going out. The account row carries the running balance so one row lock (or one
 * guarded UPDATE) decides every movement, and its CHECK makes a negative balance impossible whatever the code
 * does. Entries are append-only: a trigger refuses UPDATE and DELETE, and (account, kind, reference) is unique so
 * every movement happens exactly once; a reservation is settled (released or debited) at most once.
 */
export class CreateLedger1764680080000 implements MigrationInterface {
  name = 'CreateLedger1764680080000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_accounts (
        id uuid PRIMARY KEY,
        owner_token_name text NOT NULL,
        currency char(3) NOT NULL,
        available_cents bigint NOT NULL DEFAULT 0,
        reserved_cents bigint NOT NULL DEFAULT 0,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_accounts_owner_token_name_fkey FOREIGN KEY (owner_token_name) REFERENCES api_tokens (name),
        CONSTRAINT ledger_accounts_currency_check CHECK (currency ~ '^[a-z]{3}$'),
        CONSTRAINT ledger_accounts_balance_check CHECK (available_cents >= 0 AND reserved_cents >= 0)
      )`);
    await q.query(`CREATE INDEX ix_ledger_accounts_owner ON ledger_accounts (owner_token_name, created_at)`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL,
        kind text NOT NULL,
        amount_cents bigint NOT NULL,
        reference text NOT NULL,
        available_after_cents bigint NOT NULL,
        reserved_after_cents bigint NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_entries_account_id_fkey FOREIGN KEY (account_id) REFERENCES ledger_accounts (id),
        CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit','reserve','release','debit')),
        CONSTRAINT ledger_entries_amount_cents_check CHECK (amount_cents > 0),
        CONSTRAINT "UQ_ledger_entries_account_kind_reference" UNIQUE (account_id, kind, reference)
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_ledger_entries_one_settlement ON ledger_entries (account_id, reference) WHERE kind IN ('release','debit')`);
    await q.query(`
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP;
      END $$`);
    await q.query(`
      CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_entries`);
    await q.query(`DROP FUNCTION ledger_entries_append_only()`);
    await q.query(`DROP TABLE ledger_accounts`);
  }
}
