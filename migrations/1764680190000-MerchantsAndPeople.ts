import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchants are tenants, and reviewers and admins are people. A merchant token belongs to one merchant; a reviewer
 * or admin token names its person (four-eyes compares people, so two tokens of one person never confirm each
 * other). Charges, refunds of charges and ledger accounts carry `merchant_id`, which every merchant route puts in
 * its SQL; an order id is unique per merchant. `source` says where a token came from: `env` tokens (API_TOKENS)
 * stop working once they leave the setting, `cli` tokens live until revoked.
 * Backfill: one merchant per merchant token (named like it) and per other creator of existing charges. A refund
 * proposal records who proposed it, and the database refuses its approval by that same person.
 */
export class MerchantsAndPeople1764680190000 implements MigrationInterface {
  name = 'MerchantsAndPeople1764680190000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE merchants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "UQ_merchants_name" UNIQUE (name)
      )`);
    await q.query(`
      ALTER TABLE api_tokens
        ADD COLUMN merchant_id uuid,
        ADD COLUMN person text,
        ADD COLUMN source text NOT NULL DEFAULT 'cli'`);
    await q.query(`INSERT INTO merchants (name) SELECT name FROM api_tokens WHERE role = 'merchant' ON CONFLICT DO NOTHING`);
    await q.query(`INSERT INTO merchants (name) SELECT DISTINCT created_by FROM charges ON CONFLICT DO NOTHING`);
    await q.query(`INSERT INTO merchants (name) SELECT DISTINCT owner_token_name FROM ledger_accounts ON CONFLICT DO NOTHING`);
    await q.query(`UPDATE api_tokens t SET merchant_id = m.id FROM merchants m WHERE t.role = 'merchant' AND m.name = t.name`);
    await q.query(`UPDATE api_tokens SET person = name WHERE role <> 'merchant'`);
    // Every existing token stays `cli` (live until revoked): the next boot marks the ones its API_TOKENS names `env`.
    await q.query(`
      ALTER TABLE api_tokens
        ADD CONSTRAINT api_tokens_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(id),
        ADD CONSTRAINT api_tokens_holder_check CHECK (
          (role = 'merchant' AND merchant_id IS NOT NULL AND person IS NULL) OR (role <> 'merchant' AND merchant_id IS NULL AND person IS NOT NULL)),
        ADD CONSTRAINT api_tokens_source_check CHECK (source IN ('env','cli'))`);

    await q.query(`ALTER TABLE charges ADD COLUMN merchant_id uuid`);
    await q.query(`UPDATE charges c SET merchant_id = m.id FROM merchants m WHERE m.name = c.created_by`);
    await q.query(`
      ALTER TABLE charges
        ALTER COLUMN merchant_id SET NOT NULL,
        ADD CONSTRAINT charges_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(id),
        DROP CONSTRAINT "UQ_charges_order_id",
        ADD CONSTRAINT "UQ_charges_merchant_order_id" UNIQUE (merchant_id, order_id)`);

    await q.query(`ALTER TABLE refunds ADD COLUMN merchant_id uuid`);
    await q.query(`UPDATE refunds r SET merchant_id = c.merchant_id FROM charges c WHERE c.id = r.charge_id`);
    await q.query(`
      ALTER TABLE refunds
        ADD CONSTRAINT refunds_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(id),
        ADD CONSTRAINT refunds_merchant_check CHECK ((charge_id IS NULL) = (merchant_id IS NULL))`);

    await q.query(`ALTER TABLE ledger_accounts ADD COLUMN merchant_id uuid`);
    await q.query(`UPDATE ledger_accounts a SET merchant_id = m.id FROM merchants m WHERE m.name = a.owner_token_name`);
    await q.query(`
      ALTER TABLE ledger_accounts
        ALTER COLUMN merchant_id SET NOT NULL,
        ADD CONSTRAINT ledger_accounts_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(id)`);
    await q.query(`CREATE INDEX ix_ledger_accounts_merchant ON ledger_accounts (merchant_id, created_at)`);

    // Inbound Idempotency-Keys move from the token's scope to its merchant's, so a retry across the deploy still replays.
    await q.query(`
      UPDATE idempotency_records r SET scope = 'merchant:' || t.merchant_id || substr(r.scope, length(t.name) + 1)
        FROM api_tokens t
       WHERE t.role = 'merchant' AND (r.scope = t.name OR r.scope LIKE t.name || ' %')`);

    // Whoever proposed a refund (a reviewer acknowledging refund_needed, or reconciliation) never approves it.
    await q.query(`ALTER TABLE refund_proposals ADD COLUMN proposed_by text NOT NULL DEFAULT 'reconciliation'`);
    await q.query(`UPDATE refund_proposals p SET proposed_by = r.decided_by FROM review_items r WHERE r.id = p.review_item_id AND r.decided_by IS NOT NULL`);
    await q.query(`
      ALTER TABLE refund_proposals ADD CONSTRAINT refund_proposals_four_eyes_check
        CHECK (decided_by IS NULL OR state = 'rejected' OR decided_by <> proposed_by) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refund_proposals DROP CONSTRAINT refund_proposals_four_eyes_check, DROP COLUMN proposed_by`);
    await q.query(`DROP INDEX ix_ledger_accounts_merchant`);
    await q.query(`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_merchant_id_fkey, DROP COLUMN merchant_id`);
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_merchant_check, DROP CONSTRAINT refunds_merchant_id_fkey, DROP COLUMN merchant_id`);
    await q.query(`
      ALTER TABLE charges
        DROP CONSTRAINT "UQ_charges_merchant_order_id",
        DROP CONSTRAINT charges_merchant_id_fkey,
        DROP COLUMN merchant_id`);
    // Order ids were unique across merchants before: keep the oldest charge's, suffix the others'.
    await q.query(`
      UPDATE charges c SET order_id = c.order_id || '#' || c.id
        FROM (SELECT id, row_number() OVER (PARTITION BY order_id ORDER BY created_at, id) AS n FROM charges) d
       WHERE d.id = c.id AND d.n > 1`);
    await q.query(`ALTER TABLE charges ADD CONSTRAINT "UQ_charges_order_id" UNIQUE (order_id)`);
    await q.query(`
      ALTER TABLE api_tokens
        DROP CONSTRAINT api_tokens_source_check,
        DROP CONSTRAINT api_tokens_holder_check,
        DROP CONSTRAINT api_tokens_merchant_id_fkey,
        DROP COLUMN source, DROP COLUMN person, DROP COLUMN merchant_id`);
    await q.query(`DROP TABLE merchants`);
  }
}
