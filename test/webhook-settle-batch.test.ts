import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryStore } from '../libs/events/src/delivery/delivery.store.js';
import { createCharge, submit } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * The deliverer records the tries that finish together in one statement. Batching must not loosen the lease: a
 * row is settled only while it still carries the try that is being recorded, each row on its own, and every try
 * is kept whoever holds the row now. No worker runs here; the test leases its own endpoint's rows as a claim would.
 */
describe('settling a batch of webhook tries', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  it('settles each row only under its own try, and keeps all three tries', async () => {
    const created = await stack.http.post('/webhook-endpoints').set(stack.auth('merchant')).send({ url: 'http://127.0.0.1:9/never-called' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (let i = 0; i < 3; i++) await submit(stack, (await createCharge(stack)).id);
    const store = new DeliveryStore(stack.db, 'settle-batch-test');
    // Leased as the claim leases (not through it: in the full suite it would take other files' rows too).
    const claimed = await stack.db.query<[Array<{ id: string; attempts: number }>, number]>(
      `UPDATE webhook_deliveries SET lease_expires_at = now() + interval '1 minute', leased_by = 'settle-batch-test', attempts = attempts + 1
        WHERE endpoint_id = $1 AND state = 'pending' RETURNING id::text, attempts`,
      [created.body.id],
    ).then(([rows]) => rows);
    expect(claimed).toHaveLength(3);
    const [kept, retried, overtaken] = claimed;
    // Another worker took `overtaken` after its lease ran out: the row now carries that worker's try.
    await stack.db.query(`UPDATE webhook_deliveries SET attempts = attempts + 1 WHERE id = $1`, [overtaken.id]);

    const tried = { startedAt: new Date(), durationMs: 12, httpStatus: 204, error: null, excerpt: null };
    const settled = await store.settle([
      { delivery: kept, tried, outcome: { state: 'delivered' } },
      { delivery: retried, tried: { ...tried, httpStatus: 500, excerpt: 'answer 500' }, outcome: { state: 'pending', retryInMs: 60_000 } },
      { delivery: overtaken, tried, outcome: { state: 'delivered' } },
    ]);

    expect(settled).toEqual(new Set([String(kept.id), String(retried.id)]));
    const rows = await stack.db.query<Array<{ id: string; state: string; leased: boolean; due_in_s: number }>>(
      `SELECT id::text, state, lease_expires_at IS NOT NULL AS leased, extract(epoch FROM next_attempt_at - now())::int AS due_in_s
         FROM webhook_deliveries WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [claimed.map((d) => d.id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(String(kept.id))).toMatchObject({ state: 'delivered', leased: false });
    expect(byId.get(String(retried.id))).toMatchObject({ state: 'pending', leased: false });
    expect(byId.get(String(retried.id))!.due_in_s).toBeGreaterThan(50);
    // Still the other worker's: pending, its lease untouched.
    expect(byId.get(String(overtaken.id))).toMatchObject({ state: 'pending', leased: true });
    const tries = await stack.db.query<Array<{ delivery_id: string; http_status: number }>>(
      `SELECT delivery_id::text, http_status FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::bigint[])`,
      [claimed.map((d) => d.id)],
    );
    expect(tries).toHaveLength(3);
  });
});
