import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { killNine, spawnWorker } from './support/dead-sender.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const APP_NAME = `events-faults-${randomUUID().slice(0, 8)}`;
/** Compressed: 1 s to answer, retries within a second; a dead worker's lease (2 x timeout + 1 s) runs out in 3 s. */
const TIMINGS = { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800' };

/**
 * Issue 34's fault test, against a real worker process: the receiver answers 500, hangs past the timeout, resets
 * the connection; another endpoint answers 410; the worker is killed with SIGKILL while a delivery is on the wire;
 * Redis loses this run's keys; PostgreSQL drops every connection of the worker. The receivers count what they did
 * (each fault proven), and afterwards every committed event was received at least once, each under one webhook-id
 * across its retries, and no event of merchant A reached merchant B's endpoint or the other way round.
 */
describe('webhook delivery through faults', () => {
  let stack: TestStack;
  let worker: ChildProcess | null = null;
  let a: WebhookReceiver;
  let b: WebhookReceiver;
  let gone: WebhookReceiver;
  let merchantB: { Authorization: string };
  const queuePrefix = `events-faults-${randomUUID().slice(0, 8)}`;
  const workerEnv = () => {
    const url = new URL(stack.config.DATABASE_URL);
    url.searchParams.set('application_name', APP_NAME);
    return { ...TIMINGS, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' };
  };

  beforeAll(async () => {
    // No deliverer in this process: only the spawned worker delivers (and any other file's, which is just as good).
    stack = await startTestStack({ queuePrefix, env: TIMINGS });
    merchantB = { Authorization: `Bearer ${await stack.app.get(ApiTokenService).create(`merchant-b-${randomUUID().slice(0, 8)}`, 'merchant')}` };
    [a, b, gone] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start(), WebhookReceiver.start()]);
    for (const [receiver, auth] of [[a, stack.auth('merchant')], [b, merchantB], [gone, stack.auth('merchant')]] as const) {
      const created = await stack.http.post('/webhook-endpoints').set(auth).send({ url: receiver.url });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      receiver.secrets = [created.body.secret];
    }
    gone.answer = () => 410;
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack?.close();
    await Promise.all([a, b, gone].map((r) => r?.close()));
  });

  /** A real charge of the merchant, submitted: its event comes from the database's own triggers. */
  async function charge(auth: { Authorization: string }, beforeSubmit?: (id: string) => void): Promise<string> {
    const created = await stack.http.post('/charges').set(auth).send({ orderId: `ev-${randomUUID()}`, amountCents: 1500, currency: 'usd', customerId: 'cus_events', paymentMethodId: 'pm_card_visa' });
    beforeSubmit?.(created.body.id as string);
    await stack.http.post(`/charges/${created.body.id}/submit`).set(auth);
    return created.body.id as string;
  }

  it('delivers every committed event at least once, under one webhook-id, to its own merchant only', async () => {
    // 500, then a hang past the timeout, then a reset, then 2xx: for every event A's receiver sees first.
    const plan: Array<'hang' | 'reset' | 500> = [500, 'hang', 'reset'];
    const faultsOf = new Map<string, number>();
    a.answer = (request) => {
      if (!faultsOf.has(request.event.id) && faultsOf.size >= 3) return 'ok';
      const n = faultsOf.get(request.event.id) ?? 0;
      faultsOf.set(request.event.id, n + 1);
      return n < plan.length ? plan[n] : 'ok';
    };
    worker = spawnWorker(stack, queuePrefix, workerEnv());
    const first = await Promise.all([charge(stack.auth('merchant')), charge(stack.auth('merchant')), charge(merchantB)]);

    // SIGKILL mid-delivery: B's receiver holds the request, and the lease is the spawned worker's.
    let holdFor = '';
    b.answer = (request) => (request.event.data.object.id === holdFor && !b.did.hang ? 'hang' : 'ok');
    const heldCharge = await charge(merchantB, (id) => (holdFor = id));
    await waitFor(async () => b.did.hang ?? 0, (n) => n === 1, 15_000, 'a delivery held by the receiver');
    const [lease] = await stack.db.query<Array<{ leased_by: string }>>(
      `SELECT d.leased_by FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.object_id = $1 AND d.state = 'pending' AND d.lease_expires_at > now()`,
      [heldCharge],
    );
    expect(lease?.leased_by).toMatch(new RegExp(`:${worker.pid}$`));
    await killNine(worker);

    // Redis loses every key of this run; events keep being written meanwhile.
    const redis = new Redis(stack.config.REDIS_URL);
    let flushed = 0;
    for (let cursor = '0'; ; ) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 500);
      if (keys.length) flushed += await redis.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
    redis.disconnect();
    const during = await Promise.all([charge(stack.auth('merchant')), charge(merchantB)]);

    // A new worker; then PostgreSQL drops every one of its connections (its pool and its LISTEN) mid-run.
    worker = spawnWorker(stack, queuePrefix, workerEnv());
    await waitFor(async () => b.did.ok ?? 0, (n) => n >= 1, 15_000, 'the new worker delivering');
    const admin = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await admin.connect();
    const terminated = await waitFor(
      async () => (await admin.query(`SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1) t`, [APP_NAME])).rows[0].n as number,
      (n) => n > 0,
      10_000,
      'the worker\'s connections to drop',
    );
    await admin.end();
    const after = await Promise.all([charge(stack.auth('merchant')), charge(merchantB)]);

    // Every committed event of each merchant, received by that merchant's receiver.
    const merchantIdB = (await stack.db.query<Array<{ merchant_id: string }>>(`SELECT merchant_id FROM charges WHERE id = $1`, [heldCharge]))[0].merchant_id;
    const eventsOf = (merchantId: string) =>
      stack.db.query<Array<{ id: string }>>(
        `SELECT e.id FROM events e JOIN webhook_deliveries d ON d.event_id = e.id JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE e.merchant_id = $1 AND w.url = ANY($2)`,
        [merchantId, [a.url, b.url]],
      );
    const received = (r: WebhookReceiver) => new Set(r.requests.filter((x) => x.answered === 'ok').map((x) => x.event.id));
    await waitFor(async () => (await eventsOf(stack.merchantId)).every((e) => received(a).has(e.id)), Boolean, 20_000, 'every event of merchant A delivered');
    await waitFor(async () => (await eventsOf(merchantIdB)).every((e) => received(b).has(e.id)), Boolean, 20_000, 'every event of merchant B delivered');
    const [eventsA, eventsB] = [await eventsOf(stack.merchantId), await eventsOf(merchantIdB)];
    expect(eventsA.length).toBeGreaterThanOrEqual([...first.slice(0, 2), during[0], after[0]].length);
    expect(eventsB.length).toBeGreaterThanOrEqual([first[2], heldCharge, during[1], after[1]].length);

    // The faults happened: the receivers counted them; the worker was killed and its connections dropped.
    for (const fault of ['http_500', 'hang', 'reset']) expect(a.did[fault], fault).toBeGreaterThanOrEqual(3);
    expect(b.did.hang).toBe(1);
    expect(flushed).toBeGreaterThan(0);
    expect(terminated).toBeGreaterThan(0);
    // The held event came again after the kill, under the same webhook-id.
    const [heldEvent] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM events WHERE object_id = $1`, [heldCharge]);
    expect(b.of(heldEvent.id).map((r) => r.answered)).toEqual(['hang', 'ok']);

    for (const [receiver, merchantId] of [[a, stack.merchantId], [b, merchantIdB]] as const) {
      for (const request of receiver.requests) {
        expect(request.verifiedWith, 'verified with standardwebhooks').toEqual(receiver.secrets);
        expect(request.event.merchantId, 'never another merchant\'s event').toBe(merchantId);
        expect(request.webhookId, 'one webhook-id per event, whatever the retry').toBe(request.event.id);
      }
    }
    // The 410 endpoint was disabled at its first answer: only the tries already on the wire then (at most its
    // concurrency) reached it, and every later event waits, undelivered, for the merchant to enable it again.
    const [goneEndpoint] = await stack.db.query<Array<{ id: string; enabled: boolean; disabled_reason: string }>>(`SELECT id, enabled, disabled_reason FROM webhook_endpoints WHERE url = $1`, [gone.url]);
    expect(goneEndpoint).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect(gone.did.http_410).toBeGreaterThanOrEqual(1);
    expect(gone.did.http_410).toBeLessThanOrEqual(stack.config.WEBHOOK_ENDPOINT_CONCURRENCY);
    const [{ pending }] = await stack.db.query<Array<{ pending: number }>>(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'pending'`, [goneEndpoint.id]);
    expect(pending + gone.did.http_410).toBeGreaterThanOrEqual(eventsA.length);
  });
});
