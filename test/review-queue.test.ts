import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewAuditEntity } from '@app/database';
import { newReviewer, unknownAttemptInReview, type ItemUnderReview, type Reviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

interface ListedItem {
  id: string;
  reason: string;
  state: string;
  amountCents: number;
  openedAt: string;
  provider: string;
}

/** The read side of the queue, its input checks, who may use it, and the audit trail the database keeps. */
describe('review queue', () => {
  let stack: TestStack;
  let alice: Reviewer;
  let small: ItemUnderReview;
  let large: ItemUnderReview;
  let third: ItemUnderReview;
  beforeAll(async () => {
    stack = await startTestStack({ env: { CONSISTENT_LOOKUP_GRACE_MS: '600000', RESOLUTION_BACKOFF_MS: '600000' } });
    alice = await newReviewer(stack, 'alice');
    small = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 1500 });
    large = await unknownAttemptInReview(stack, '500_before_create', { amountCents: 250_000 });
    third = await unknownAttemptInReview(stack, '500_before_create', { amountCents: 9900 });
  });
  afterAll(async () => stack.close());

  const list = (query: string, who: Reviewer | { headers: Record<string, string> } = alice) => stack.http.get(`/review/items${query}`).set(who.headers);
  const mine = (items: ListedItem[]) => items.filter((i) => [small.itemId, large.itemId, third.itemId].includes(i.id));

  it('lists waiting items oldest first with their money facts, and pages with a cursor', async () => {
    const all = await list('?limit=200');
    expect(all.status).toBe(200);
    const items = mine(all.body.items as ListedItem[]);
    expect(items.map((i) => i.id)).toEqual([small.itemId, large.itemId, third.itemId]);
    expect(items[0]).toEqual(
      expect.objectContaining({ reason: expect.any(String), state: expect.any(String), attemptId: expect.any(String), chargeId: expect.any(String), provider: 'stripe', currency: 'usd', customerId: expect.any(String), claimedBy: null, claimExpiresAt: null }),
    );
    const opened = (all.body.items as ListedItem[]).map((i) => Date.parse(i.openedAt));
    expect([...opened].sort((a, b) => a - b)).toEqual(opened);

    // One page at a time visits every item exactly once (other test files may add items meanwhile: they come after).
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(1);
      seen.push(...(page.body.items as ListedItem[]).map((i) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => [small.itemId, large.itemId, third.itemId].includes(id))).toEqual([small.itemId, large.itemId, third.itemId]);
  });

  it('filters by state, reason, provider, minimum amount and age', async () => {
    expect(mine((await list('?minAmountCents=100000&limit=200')).body.items).map((i) => i.id)).toEqual([large.itemId]);
    expect(mine((await list('?reason=tries_exhausted&provider=stripe&limit=200')).body.items)).toHaveLength(3);
    expect(mine((await list('?reason=amount_mismatch&limit=200')).body.items)).toHaveLength(0);
    expect(mine((await list('?provider=asaas&limit=200')).body.items)).toHaveLength(0);
    expect(mine((await list('?olderThan=1d&limit=200')).body.items)).toHaveLength(0);
    expect(mine((await list(`?olderThan=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=200`)).body.items)).toHaveLength(3);
    await stack.http.post(`/review/items/${third.itemId}/claim`).set(alice.headers).expect(200);
    expect(mine((await list('?state=claimed&limit=200')).body.items).map((i) => i.id)).toEqual([third.itemId]);
    expect(mine((await list('?state=open&limit=200')).body.items).map((i) => i.id)).toEqual([small.itemId, large.itemId]);
    expect(mine((await list('?state=closed&limit=200')).body.items)).toHaveLength(0);
  });

  it('refuses bad filters with a 400 naming the field, and unknown items with a 404', async () => {
    for (const [query, field] of [
      ['?state=decided', 'state'],
      ['?minAmountCents=12.5', 'minAmountCents'],
      ['?limit=0', 'limit'],
      ['?olderThan=yesterday', 'olderThan'],
      ['?cursor=bm9wZQ', 'cursor'],
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body.message), query).toContain(field);
    }
    expect((await stack.http.get('/review/items/00000000-0000-4000-8000-000000000000').set(alice.headers)).status).toBe(404);
    expect((await stack.http.get('/review/items/not-a-uuid').set(alice.headers)).status).toBe(400);
    const bad = await stack.http.post(`/review/items/${small.itemId}/decision`).set(alice.headers).send({ action: 'refund', reason: 'x' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('action must be one of');
    expect(JSON.stringify(bad.body.message)).toContain('reason must be 3 to 2000 characters');
  });

  it('shows an item with its evidence assembled now: charge, attempts with payloads, provider calls, transitions, webhooks, snapshot', async () => {
    const res = await stack.http.get(`/review/items/${small.itemId}`).set(alice.headers);
    expect(res.status).toBe(200);
    const { evidence } = res.body;
    expect(evidence.charge).toMatchObject({ id: small.charge.id, amountCents: 1500, currency: 'usd' });
    expect(evidence.attempts).toHaveLength(1);
    expect(evidence.attempts[0].payload).toContain(`metadata[attempt_id]=${small.attemptId}`);
    expect(evidence.providerCalls).toEqual([expect.objectContaining({ attemptId: small.attemptId, kind: 'create', outcome: expect.any(String), durationMs: expect.any(Number), at: expect.any(String) })]);
    expect(evidence.transitions.map((t: { from: string | null; to: string }) => `${t.from}→${t.to}`)).toEqual(['null→pending', 'pending→unknown']);
    expect(evidence.webhookEvents).toEqual([]);
    expect(evidence.snapshot).toMatchObject({ findings: { lastLookup: { kind: 'error' } } });
  });

  it('is for reviewers and admins only', async () => {
    expect((await list('', { headers: stack.auth('merchant') })).status).toBe(403);
    expect((await list('', { headers: {} })).status).toBe(401);
    expect((await list('', { headers: stack.auth('admin') })).status).toBe(200);
    expect((await stack.http.get('/review/me').set(alice.headers)).body).toEqual({ name: alice.name, role: 'reviewer' });
  });

  it('keeps an audit trail the database refuses to update, delete or truncate', async () => {
    const rows = await stack.db.getRepository(ReviewAuditEntity).findBy({ reviewItemId: third.itemId });
    expect(rows.map((r) => r.action)).toEqual(['claim']);
    await expect(stack.db.query(`UPDATE review_audit SET actor = 'mallory' WHERE review_item_id = $1`, [third.itemId])).rejects.toThrow(/append-only/);
    await expect(stack.db.query(`DELETE FROM review_audit WHERE review_item_id = $1`, [third.itemId])).rejects.toThrow(/append-only/);
    await expect(stack.db.query(`TRUNCATE review_audit CASCADE`)).rejects.toThrow(/append-only/);
    const audit = await stack.http.get(`/review/items/${third.itemId}/audit`).set(alice.headers);
    expect(audit.body).toEqual([expect.objectContaining({ action: 'claim', actor: alice.name, stateBefore: 'open', stateAfter: 'claimed' })]);
  });

  it('exports the queue by reason and age, and decisions by action, as metrics', async () => {
    await stack.http.post(`/review/items/${small.itemId}/claim`).set(alice.headers).expect(200);
    await stack.http.post(`/review/items/${small.itemId}/decision`).set(alice.headers).send({ action: 'succeeded', providerChargeId: small.intentId, reason: 'intent succeeded' }).expect(200);
    const metrics = { text: await stack.metrics() };
    expect(metrics.text).toMatch(/charge_once_review_items_waiting\{reason="tries_exhausted",state="open"\} \d+/);
    expect(metrics.text).toMatch(/charge_once_review_item_oldest_seconds\{reason="tries_exhausted",state="claimed"\} [\d.]+/);
    expect(metrics.text).toMatch(/charge_once_review_decisions_total\{action="succeeded",result="applied"\} [1-9]/);
    expect(metrics.text).toMatch(/charge_once_open_review_items \d+/);
  });
});
