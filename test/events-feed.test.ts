import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import type { FeedPage, MerchantEvent } from '@app/events';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 34 part 4: `GET /events` lists a merchant's events in an order no later commit can land before. Events are
 * made the way the outbox makes them (`emit_event` inside a transaction) for merchants of their own, so each test
 * reads exactly the events it wrote.
 */
describe('the event feed', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  interface Merchant {
    id: string;
    headers: { Authorization: string };
  }

  /** A merchant of its own (its row inserted as token:create inserts it) and its token. */
  async function newMerchant(): Promise<Merchant> {
    const name = `feed-${randomUUID().slice(0, 8)}`;
    const token = await stack.app.get(ApiTokenService).create(name, 'merchant');
    const [{ id }] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM merchants WHERE name = $1`, [name]);
    return { id, headers: { Authorization: `Bearer ${token}` } };
  }

  /** A transaction of its own, left open until the test commits it. */
  async function openTransaction(): Promise<QueryRunner> {
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    return runner;
  }

  /** One event through the one writer, in `runner`'s transaction; its id and seq as that transaction sees them. */
  async function emit(runner: QueryRunner, merchantId: string, type = 'charge.succeeded'): Promise<{ id: string; seq: number }> {
    const objectId = randomUUID();
    const [{ id }] = await runner.query(`SELECT emit_event($1, $2, 'charge', $3, $4::jsonb, 'succeeded') AS id`, [merchantId, type, objectId, JSON.stringify({ id: objectId, object: 'charge' })]);
    const [{ seq }] = await runner.query(`SELECT seq FROM events WHERE id = $1`, [id]);
    return { id, seq: Number(seq) };
  }

  async function committedEvent(merchantId: string, type?: string): Promise<{ id: string; seq: number }> {
    const runner = await openTransaction();
    try {
      const event = await emit(runner, merchantId, type);
      await runner.commitTransaction();
      return event;
    } finally {
      await runner.release();
    }
  }

  async function feed(merchant: Merchant, query: Record<string, string | number> = {}): Promise<FeedPage> {
    const res = await stack.http.get('/events').query(query).set(merchant.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as FeedPage;
  }

  /** What a bigserial cursor would read: rows past `seq` visible right now, by seq. */
  async function seqCursorRead(merchantId: string, afterSeq: number): Promise<number[]> {
    const rows = await stack.db.query<Array<{ seq: string }>>(`SELECT seq FROM events WHERE merchant_id = $1 AND seq > $2 ORDER BY seq`, [merchantId, afterSeq]);
    return rows.map((r) => Number(r.seq));
  }

  it('never skips an event whose transaction took the lower seq but committed after a later-numbered one (a seq cursor would)', async () => {
    const merchant = await newMerchant();
    const first = await committedEvent(merchant.id);
    const start = await waitFor(() => feed(merchant), (page) => page.data.length === 1, 10_000, 'the first event');
    expect(start.data.map((e) => e.id)).toEqual([first.id]);
    const cursor = start.nextCursor!;

    // T1 begins and writes first (the lower seq); T2 writes after it and commits while T1 is still open.
    const t1 = await openTransaction();
    const t2 = await openTransaction();
    try {
      const e1 = await emit(t1, merchant.id);
      const e2 = await emit(t2, merchant.id);
      expect(e1.seq).toBeLessThan(e2.seq);
      await t2.commitTransaction();

      // A seq cursor sees T2's event now and moves past T1's seq: once T1 commits, `seq > cursor` never returns it.
      expect(await seqCursorRead(merchant.id, first.seq)).toEqual([e2.seq]);
      // The feed holds T2's event back while T1, older, may still commit.
      const during = await feed(merchant, { after: cursor });
      expect(during.data.map((e) => e.id)).not.toContain(e2.id);
      expect(during.data).toEqual([]);
      const cursorDuring = during.nextCursor!;
      expect(cursorDuring).toBe(cursor);

      await t1.commitTransaction();
      // The seq cursor, advanced to T2's seq, skipped T1's event for good.
      expect(await seqCursorRead(merchant.id, e2.seq)).toEqual([]);

      // Following cursors from the one taken during T1 sees both, T1's first, none skipped.
      const seen: MerchantEvent[] = [];
      let next = cursorDuring;
      await waitFor(
        async () => {
          const page = await feed(merchant, { after: next });
          seen.push(...page.data);
          next = page.nextCursor ?? next;
          return seen.length;
        },
        (n) => n >= 2,
        10_000,
        'both interleaved events in the feed',
      );
      expect(seen.map((e) => e.id)).toEqual([e1.id, e2.id]);
      expect((await feed(merchant, { after: next })).data).toEqual([]);
    } finally {
      await t1.release();
      await t2.release();
    }
  });

  it('pages with limit and hasMore, filters by type, and shapes each event as a receiver gets it', async () => {
    const merchant = await newMerchant();
    const written: Array<{ id: string; type: string }> = [];
    for (const type of ['charge.succeeded', 'charge.failed', 'refund.succeeded', 'charge.succeeded', 'payout.sent']) written.push({ ...(await committedEvent(merchant.id, type)), type });
    await waitFor(() => feed(merchant, { limit: 100 }), (p) => p.data.length === 5, 10_000, 'five events');

    const pages: FeedPage[] = [];
    let after: string | undefined;
    do {
      const page = await feed(merchant, { limit: 2, ...(after ? { after } : {}) });
      pages.push(page);
      after = page.nextCursor ?? undefined;
    } while (pages.at(-1)!.hasMore);
    expect(pages.map((p) => [p.data.length, p.hasMore])).toEqual([[2, true], [2, true], [1, false]]);
    expect(pages.flatMap((p) => p.data.map((e) => e.id))).toEqual(written.map((e) => e.id));

    const [event] = pages[0].data;
    expect(event).toEqual({
      id: written[0].id,
      type: 'charge.succeeded',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      merchantId: merchant.id,
      objectVersion: 1,
      data: { object: expect.objectContaining({ object: 'charge', status: 'succeeded' }) },
    });
    expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'id', 'merchantId', 'objectVersion', 'type']);

    const filtered = await feed(merchant, { types: 'charge.succeeded,payout.sent' });
    expect(filtered.data.map((e) => e.id)).toEqual([written[0].id, written[3].id, written[4].id]);
    expect(filtered.data.every((e) => e.type === 'charge.succeeded' || e.type === 'payout.sent')).toBe(true);
    expect((await feed(merchant)).data).toHaveLength(5);
  });

  it('lists 30 days back and never a ping', async () => {
    const merchant = await newMerchant();
    const old = await committedEvent(merchant.id);
    const ping = await committedEvent(merchant.id, 'ping');
    const recent = await committedEvent(merchant.id);
    await stack.db.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE id = $1`, [old.id]);
    await stack.db.query(`UPDATE events SET created_at = now() - interval '29 days' WHERE id = $1`, [recent.id]);
    const page = await waitFor(() => feed(merchant), (p) => p.data.length >= 1, 10_000, 'the recent event');
    expect(page.data.map((e) => e.id)).toEqual([recent.id]);
    expect(page.data.map((e) => e.id)).not.toContain(ping.id);
  });

  it('refuses a bad cursor naming after, a bad type naming types, and a limit outside 1..100', async () => {
    const merchant = await newMerchant();
    for (const after of ['nonsense', Buffer.from('v1:12:x').toString('base64url'), Buffer.from('v2:1:1').toString('base64url')]) {
      const res = await stack.http.get('/events').query({ after }).set(merchant.headers);
      expect(res.status, after).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_event_cursor', details: { field: 'after' } });
      expect(res.body.message).toMatch(/^after/);
    }
    for (const types of ['charge.bogus', 'charge.succeeded,ping', ',']) {
      const res = await stack.http.get('/events').query({ types }).set(merchant.headers);
      expect(res.status, types).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_event_types', details: { field: 'types' } });
      expect(res.body.message).toMatch(/^types/);
    }
    for (const limit of ['0', '101', 'ten']) {
      const res = await stack.http.get('/events').query({ limit }).set(merchant.headers);
      expect(res.status, limit).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain('limit');
    }
    expect((await feed(merchant, { limit: 100 })).data).toEqual([]);
  });

  it("shows a merchant its own events only: another merchant's event is a 404, and never in its feed", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const event = await committedEvent(a.id);
    await waitFor(() => feed(a), (p) => p.data.length === 1, 10_000, "A's event");

    const own = await stack.http.get(`/events/${event.id}`).set(a.headers);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: event.id, merchantId: a.id, objectVersion: 1 });
    const other = await stack.http.get(`/events/${event.id}`).set(b.headers);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('event_not_found');
    expect((await stack.http.get(`/events/${randomUUID()}`).set(a.headers)).status).toBe(404);
    expect((await feed(b)).data).toEqual([]);
    // The feed is a merchant's own: an admin token has no merchant to list.
    const admin = await stack.http.get('/events').set(stack.auth('admin'));
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe('event_feed_merchant_required');
  });
});
