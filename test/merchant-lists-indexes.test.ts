import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeListFilters, chargeListStatement } from '@app/charges';
import { encodeListCursor } from '@app/common';
import { payoutListFilters, payoutListStatement } from '@app/payouts';
import { refundListFilters, refundListStatement } from '@app/refunds';
import { scratchDatabase } from './support/scratch-database.js';

const ROWS = 100_000;
const BIG = ['charges', 'refunds', 'payouts', 'list_statuses'];

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/**
 * Issue 36: every list filter is an index range at 100 000 rows. One merchant holds 100 000 charges, refunds and
 * payouts (a second merchant as many charges, so the merchant condition must be in the index too); each list's own
 * statement, exactly as the api builds it, is EXPLAINed: its index is used and no big table is scanned whole.
 */
describe('merchant list indexes at 100 000 rows', () => {
  let client: pg.Client;
  const merchant = randomUUID();
  const other = randomUUID();
  const account = randomUUID();

  beforeAll(async () => {
    client = new pg.Client({ connectionString: await scratchDatabase('lists_indexes') });
    await client.connect();
    await client.query(`INSERT INTO merchants (id, name) VALUES ($1, 'm-a'), ($2, 'm-b')`, [merchant, other]);
    await client.query(`INSERT INTO api_tokens (name, role, token_hash, merchant_id) VALUES ('m-a', 'merchant', repeat('0', 64), $1)`, [merchant]);
    await client.query(`INSERT INTO ledger_accounts (id, owner_token_name, currency, created_by, merchant_id) VALUES ($1, 'm-a', 'brl', 'test', $2)`, [account, merchant]);
    // Fixtures straight in SQL, triggers off (a row trigger per fixture would be most of the seeding time): the
    // list rows are written below as the triggers would, their statuses spread over the set.
    await client.query(`SET session_replication_role = replica`);
    for (const m of [merchant, other]) {
      await client.query(
        `INSERT INTO charges (id, order_id, amount_cents, currency, customer_id, provider, created_by, merchant_id, created_at)
         SELECT gen_random_uuid(), 'o-' || g, 1000, 'usd', 'cus_' || (g % 5000), 'stripe', 'test', $1, now() - g * interval '1 second'
           FROM generate_series(1, ${ROWS}) g`,
        [m],
      );
    }
    await client.query(
      `INSERT INTO refunds (id, charge_id, merchant_id, amount_cents, currency, created_by, created_at)
       SELECT gen_random_uuid(), c.id, c.merchant_id, 100, 'usd', 'test', c.created_at FROM charges c WHERE c.merchant_id = $1`,
      [merchant],
    );
    await client.query(
      `INSERT INTO payouts (id, account_id, amount_cents, currency, provider, pix_key, pix_key_type, created_by, created_at)
       SELECT gen_random_uuid(), $1, 100, 'brl', 'efi', 'p@example.com', 'email', 'test', now() - g * interval '1 second' FROM generate_series(1, ${ROWS}) g`,
      [account],
    );
    const spread = (statuses: string[]) => `(ARRAY[${statuses.map((x) => `'${x}'`).join(',')}])[1 + abs(hashtext(id::text)) % ${statuses.length}]`;
    const moneyOut = spread(['succeeded', 'failed', 'processing', 'in_review']);
    await client.query(`INSERT INTO list_statuses SELECT 'charge', id, merchant_id, ${spread(['succeeded', 'failed', 'processing', 'refunded', 'in_review'])}, created_at FROM charges`);
    await client.query(`INSERT INTO list_statuses SELECT 'refund', id, merchant_id, ${moneyOut}, created_at FROM refunds`);
    await client.query(`INSERT INTO list_statuses SELECT 'payout', id, account_id, ${moneyOut}, created_at FROM payouts`);
    await client.query(`SET session_replication_role = DEFAULT`);
    await client.query('ANALYZE');
  }, 240_000);
  afterAll(async () => {
    await client?.end();
  });

  const plan = async ({ sql, params }: { sql: string; params: unknown[] }) => {
    const [{ 'QUERY PLAN': [root] }] = (await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
    return nodes(root.Plan);
  };
  const expectIndex = (all: PlanNode[], index: string) => {
    // The one account row may be read any way; the big tables only through an index.
    expect(all.filter((n) => n['Node Type'] === 'Seq Scan' && BIG.includes(n['Relation Name']!)).map((n) => n['Relation Name'])).toEqual([]);
    expect(all.map((n) => n['Index Name']).filter(Boolean)).toContain(index);
  };
  const cursor = encodeListCursor({ createdAtMicros: String((Date.now() - 50_000_000) * 1000), id: randomUUID() });

  it('seeds what it claims', async () => {
    const { rows } = await client.query(`SELECT (SELECT count(*) FROM charges WHERE merchant_id = $1)::int AS charges, (SELECT count(*) FROM list_statuses)::int AS statuses`, [merchant]);
    expect(rows[0]).toEqual({ charges: ROWS, statuses: 4 * ROWS });
  });

  const charges: Array<[string, Record<string, string>, string]> = [
    ['a page', {}, 'ix_charges_merchant_page'],
    ['a later page', { cursor }, 'ix_charges_merchant_page'],
    ['a status', { status: 'failed' }, 'ix_list_statuses_page'],
    ['a status, later page', { status: 'failed', cursor }, 'ix_list_statuses_page'],
    ['a status and a creation range', { status: 'processing', createdFrom: '2026-01-01', createdTo: '2099-01-01' }, 'ix_list_statuses_page'],
    ['a creation range', { createdFrom: new Date(Date.now() - 3_600_000).toISOString() }, 'ix_charges_merchant_page'],
    ['an order id', { orderId: 'o-4242' }, 'UQ_charges_merchant_order_id'],
    ['a customer id', { customerId: 'cus_42' }, 'ix_charges_merchant_customer_page'],
  ];
  for (const [what, query, index] of charges) {
    it(`GET /charges by ${what} uses ${index}`, async () => {
      expectIndex(await plan(chargeListStatement(merchant, chargeListFilters({ limit: '50', ...query }))), index);
    });
  }

  const refunds: Array<[string, Record<string, string>, string]> = [
    ['a page', {}, 'ix_refunds_merchant_page'],
    ['a status', { status: 'succeeded' }, 'ix_list_statuses_page'],
    ['a charge', { chargeId: randomUUID() }, 'ix_refunds_charge_page'],
    ['a charge and a status', { chargeId: randomUUID(), status: 'failed' }, 'ix_refunds_charge_page'],
  ];
  for (const [what, query, index] of refunds) {
    it(`GET /refunds by ${what} uses ${index}`, async () => {
      expectIndex(await plan(refundListStatement(merchant, refundListFilters({ limit: '50', ...query }))), index);
    });
  }

  for (const [what, query, index] of [['a page', {}, 'ix_payouts_account_page'], ['a status', { status: 'in_review' }, 'ix_list_statuses_page']] as const) {
    it(`GET /accounts/:id/payouts by ${what} uses ${index}`, async () => {
      expectIndex(await plan(payoutListStatement(account, merchant, payoutListFilters({ limit: '50', ...query }))), index);
    });
  }
});
