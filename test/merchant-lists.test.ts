import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { createCharge, submit } from './support/charges.js';
import { fundedAccount, payoutBody } from './support/payouts.js';
import { refund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 36, item 1: a merchant lists its own charges, refunds, accounts and payouts, newest first, keyset-paged.
 * Over the real api and database: the status filter reads the stored list status (kept at commit), so every
 * list status is checked against the charge's own derived view.
 */
describe('merchant lists', () => {
  let stack: TestStack;
  let efi: EfiSimulator;
  let merchantB: { Authorization: string };
  const a = () => stack.auth('merchant');
  const ids = { created: '', succeeded: '', refunded: '', failed: '', refund: '', account: '', payout: '' };

  beforeAll(async () => {
    efi = await startEfiSimulator();
    stack = await startTestStack({ efi });
    merchantB = { Authorization: `Bearer ${await stack.app.get(ApiTokenService).create(`merchant-b-${randomUUID().slice(0, 8)}`, 'merchant')}` };
    ids.created = (await createCharge(stack, { customerId: 'cus_lists_1' })).id;
    ids.succeeded = (await succeededCharge(stack, { customerId: 'cus_lists_1' })).id;
    ids.refunded = (await succeededCharge(stack)).id;
    ids.refund = (await refund(stack, ids.refunded, 100)).id;
    const failed = await submit(stack, (await createCharge(stack, { paymentMethodId: 'pm_card_chargeDeclined' })).id);
    expect(failed.status).toBe('failed');
    ids.failed = failed.id;
    ids.account = await fundedAccount(stack, 5_000);
    const payout = await stack.http.post(`/accounts/${ids.account}/payouts`).set(a()).send(payoutBody(1_000));
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    ids.payout = payout.body.id;
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  const list = async (path: string, auth = a()) => {
    const res = await stack.http.get(path).set(auth);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as { items: Array<Record<string, unknown> & { id: string; status: string }>; nextCursor: string | null };
  };

  it('lists each charge with the status its own view derives, and filters by every status', async () => {
    const page = await list('/charges?limit=200');
    const byId = new Map(page.items.map((c) => [c.id, c]));
    for (const id of [ids.created, ids.succeeded, ids.refunded, ids.failed]) {
      const view = await stack.http.get(`/charges/${id}`).set(a());
      expect(byId.get(id)?.status, id).toBe(view.body.status);
      expect(byId.get(id)).toMatchObject({ orderId: view.body.orderId, amountCents: view.body.amountCents, currency: view.body.currency });
      expect(byId.get(id)).not.toHaveProperty('attempts');
    }
    expect(byId.get(ids.created)?.status).toBe('created');
    expect(byId.get(ids.succeeded)?.status).toBe('succeeded');
    expect(byId.get(ids.failed)?.status).toBe('failed');
    expect(['refund_pending', 'partially_refunded']).toContain(byId.get(ids.refunded)?.status);
    for (const status of ['created', 'succeeded', 'failed', byId.get(ids.refunded)!.status]) {
      const filtered = await list(`/charges?status=${status}`);
      expect(filtered.items.every((c) => c.status === status), status).toBe(true);
      expect(filtered.items.map((c) => c.id).sort()).toEqual(page.items.filter((c) => c.status === status).map((c) => c.id).sort());
    }
  });

  it('moves a charge to processing in the list when its first attempt opens, with no event announced', async () => {
    const charge = await createCharge(stack);
    expect((await list(`/charges?orderId=${encodeURIComponent(charge.orderId)}`)).items[0].status).toBe('created');
    // The opener's own statement (as a first submit runs it): the attempt's creation row, which the outbox skips.
    await stack.db.query(`SELECT open_claimed_charge_attempt($1, 0, gen_random_uuid(), gen_random_uuid(), 'stripe', '{}', 'h', 60000, 'test')`, [charge.id]);
    const view = await stack.http.get(`/charges/${charge.id}`).set(a());
    expect(view.body.status).toBe('processing');
    expect((await list(`/charges?orderId=${encodeURIComponent(charge.orderId)}`)).items[0].status).toBe('processing');
    expect((await list('/charges?status=processing')).items.map((c) => c.id)).toContain(charge.id);
    expect(await stack.db.query(`SELECT type FROM events WHERE object_id = $1`, [charge.id])).toEqual([]);
    // Listed as created, nothing can race the first attempt: its trigger set the status without the outbox's lock.
    expect(await stack.db.query(`SELECT 1 FROM event_objects WHERE object_id = $1`, [charge.id])).toEqual([]);
  });

  it('moves a failed charge back to processing when it is submitted again, through the outbox lock', async () => {
    const failed = await submit(stack, (await createCharge(stack, { paymentMethodId: 'pm_card_chargeDeclined' })).id);
    expect(failed.status).toBe('failed');
    await stack.db.query(`SELECT open_claimed_charge_attempt($1, 1, gen_random_uuid(), gen_random_uuid(), 'stripe', '{}', 'h', 60000, 'test')`, [failed.id]);
    expect((await stack.http.get(`/charges/${failed.id}`).set(a())).body.status).toBe('processing');
    expect((await list(`/charges?orderId=${encodeURIComponent(failed.orderId)}`)).items[0].status).toBe('processing');
    expect((await list('/charges?status=failed')).items.map((c) => c.id)).not.toContain(failed.id);
  });

  it('filters charges by order id, customer id and creation time', async () => {
    const created = await stack.http.get(`/charges/${ids.created}`).set(a());
    expect((await list(`/charges?orderId=${encodeURIComponent(created.body.orderId)}`)).items.map((c) => c.id)).toEqual([ids.created]);
    expect((await list('/charges?customerId=cus_lists_1')).items.map((c) => c.id)).toEqual([ids.succeeded, ids.created]);
    expect((await list('/charges?customerId=cus_lists_1&status=succeeded')).items.map((c) => c.id)).toEqual([ids.succeeded]);
    expect((await list('/charges?createdFrom=2000-01-01&createdTo=2000-01-02')).items).toEqual([]);
    const listed = (await list(`/charges?orderId=${encodeURIComponent(created.body.orderId)}`)).items[0];
    const at = new Date(listed.createdAt as string);
    const around = await list(`/charges?createdFrom=${new Date(at.getTime() - 1).toISOString()}&createdTo=${new Date(at.getTime() + 1).toISOString()}`);
    expect(around.items.map((c) => c.id)).toContain(ids.created);
    expect((await list(`/charges?createdFrom=${new Date(at.getTime() + 60_000).toISOString()}`)).items).toEqual([]);
  });

  it('lists refunds, by charge and by status, and accounts and their payouts', async () => {
    const refunds = await list('/refunds');
    expect(refunds.items.map((r) => r.id)).toEqual([ids.refund]);
    expect(refunds.items[0]).toMatchObject({ chargeId: ids.refunded, amountCents: 100 });
    const refundView = await stack.http.get(`/refunds/${ids.refund}`).set(a());
    expect(refunds.items[0].status).toBe(refundView.body.status);
    expect((await list(`/refunds?chargeId=${ids.refunded}`)).items.map((r) => r.id)).toEqual([ids.refund]);
    expect((await list(`/refunds?chargeId=${ids.succeeded}`)).items).toEqual([]);
    expect((await list(`/refunds?status=${refundView.body.status}`)).items.map((r) => r.id)).toEqual([ids.refund]);
    expect((await list(`/refunds?status=${refundView.body.status === 'failed' ? 'succeeded' : 'failed'}`)).items).toEqual([]);

    expect((await list('/accounts')).items.map((x) => x.id)).toEqual([ids.account]);
    const payouts = await list(`/accounts/${ids.account}/payouts`);
    const payoutView = await stack.http.get(`/payouts/${ids.payout}`).set(a());
    expect(payouts.items).toEqual([expect.objectContaining({ id: ids.payout, accountId: ids.account, amountCents: 1_000, status: payoutView.body.status })]);
    expect((await list(`/accounts/${ids.account}/payouts?status=${payoutView.body.status}`)).items.map((p) => p.id)).toEqual([ids.payout]);
    expect((await list(`/accounts/${ids.account}/payouts?status=in_review`)).items).toEqual([]);
  });

  it('never shows one merchant another merchant\'s rows, and another merchant\'s account is not found', async () => {
    for (const path of ['/charges', '/charges?status=succeeded', `/charges?customerId=cus_lists_1`, '/refunds', `/refunds?chargeId=${ids.refunded}`, '/accounts']) {
      expect((await list(path, merchantB)).items, path).toEqual([]);
    }
    for (const path of [`/accounts/${ids.account}/payouts`, `/accounts/${ids.account}/payouts?status=succeeded`, `/accounts/${randomUUID()}/payouts`]) {
      const res = await stack.http.get(path).set(merchantB);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('account_not_found');
    }
  });

  it('pages over many rows newest first with no skip and no repeat, while new charges arrive', async () => {
    const before = new Set((await list('/charges?limit=200')).items.map((c) => c.id));
    // 300 charges, many sharing one created_at to the microsecond: the id must break the tie.
    const seeded = await stack.db.query<Array<{ id: string }>>(
      `INSERT INTO charges (id, order_id, amount_cents, currency, customer_id, provider, created_by, merchant_id, created_at)
       SELECT gen_random_uuid(), 'paging-' || g, 100 + g, 'usd', 'cus_paging', 'stripe', 'test', $1, now() - ((g / 7) * interval '1 second')
         FROM generate_series(1, 300) g RETURNING id`,
      [stack.merchantId],
    );
    const expected = new Set([...before, ...seeded.map((r) => r.id)]);
    const seen: string[] = [];
    const arrived: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`/charges?limit=13${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
      // A charge created between two pages is newer than every page still to come: it must not appear in them.
      arrived.push((await createCharge(stack)).id);
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThan(20);
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.filter((id) => arrived.includes(id))).toEqual([]);
    expect(new Set(seen.filter((id) => !arrived.includes(id)))).toEqual(expected);
    // Newest first: each row is not newer than the one before it.
    const all = await list('/charges?limit=200');
    const times = all.items.map((c) => Date.parse(c.createdAt as string));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    // The same walk with a status filter: the seeded charges are all created, their status index pages too.
    const createdSeen: string[] = [];
    cursor = null;
    do {
      const page = await list(`/charges?status=created&limit=29${cursor ? `&cursor=${cursor}` : ''}`);
      createdSeen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(createdSeen.length).toBe(new Set(createdSeen).size);
    for (const id of seeded.map((r) => r.id)) expect(createdSeen).toContain(id);
  });

  it('refuses bad filters with 400 and a code naming the field, writing nothing', async () => {
    const cases: Array<[string, string, string]> = [
      ['/charges?status=paid', 'invalid_list_status', 'status'],
      ['/charges?status=created&status=failed', 'invalid_list_filter', 'status'],
      ['/charges?createdFrom=2026-02-30', 'invalid_list_date', 'createdFrom'],
      ['/charges?createdTo=2026-13-01T00:00:00Z', 'invalid_list_date', 'createdTo'],
      ['/charges?createdFrom=2026-03-02&createdTo=2026-03-01', 'invalid_list_date', 'createdTo'],
      ['/charges?cursor=not-a-cursor', 'invalid_list_cursor', 'cursor'],
      ['/charges?limit=0', 'invalid_list_limit', 'limit'],
      ['/charges?limit=201', 'invalid_list_limit', 'limit'],
      ['/charges?limit=1.5', 'invalid_list_limit', 'limit'],
      ['/charges?orderId=', 'invalid_list_filter', 'orderId'],
      // NUL and ill-formed UTF-8 are the edge's to refuse (request-text checks), before the list's own parser.
      ['/charges?orderId=a%00b', 'invalid_query', 'orderId'],
      ['/charges?customerId=%ff', 'invalid_query', 'customerId'],
      ['/refunds?chargeId=nope', 'invalid_list_filter', 'chargeId'],
      ['/refunds?status=refunded', 'invalid_list_status', 'status'],
      ['/accounts?limit=-1', 'invalid_list_limit', 'limit'],
      [`/accounts/${ids.account}/payouts?status=sent`, 'invalid_list_status', 'status'],
      [`/accounts/${ids.account}/payouts?cursor=${Buffer.from('l1:1:x').toString('base64url')}`, 'invalid_list_cursor', 'cursor'],
    ];
    const [{ n: rowsBefore }] = await stack.db.query<Array<{ n: string }>>(`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM list_statuses) AS n`);
    for (const [path, code, field] of cases) {
      const res = await stack.http.get(path).set(a());
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code, details: { field } });
    }
    const [{ n: rowsAfter }] = await stack.db.query<Array<{ n: string }>>(`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM list_statuses) AS n`);
    expect(rowsAfter).toBe(rowsBefore);
  });
});
