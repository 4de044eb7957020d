import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeView } from '@app/charges';
import { startPostgresPair, type PostgresPair } from '../apps/bench/src/postgres-pair.js';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const CHARGES = 30;
/** A request that takes longer than this hangs, as far as a client is concerned. */
const HANG_MS = 10_000;

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | undefined;
}

/**
 * The service runs on a primary and a synchronous standby behind PgBouncer (session mode). Mid-storm the primary is
 * killed with SIGKILL, the standby promoted and the proxy pointed at it; nothing is restarted. Every process
 * reconnects by itself, requests caught in the switch answer 503 with Retry-After (never a hang, never a 500), and
 * afterwards: every charge the api created is there, no charge was made twice, every attempt is settled or in review.
 */
describe('a PostgreSQL primary replaced mid-storm', () => {
  let pair: PostgresPair;
  let stack: TestStack;

  beforeAll(async () => {
    pair = await startPostgresPair();
    stack = await startTestStack({
      worker: true,
      env: { DATABASE_URL: pair.url, SWEEPER_INTERVAL_MS: '300', SUBMIT_LEASE_MS: '1500', PROVIDER_CONNECT_TIMEOUT_MS: '300', PROVIDER_READ_TIMEOUT_MS: '1000' },
    });
    stack.sim.configure({ createLatencyMs: 150 });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await pair?.close();
  });

  const answers: Answer[] = [];
  /** One request as a client makes it: on a 503 it waits as Retry-After says and asks again. */
  async function request(send: () => Promise<{ status: number; headers: Record<string, string>; body: unknown }>): Promise<{ status: number; body: unknown }> {
    for (;;) {
      const started = Date.now();
      const res = await send();
      answers.push({ status: res.status, ms: Date.now() - started, retryAfter: res.headers['retry-after'] });
      if (res.status !== 503) return res;
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers['retry-after'] ?? 1) * 200));
    }
  }

  it('switches without a restart, answers 503 while it does, and loses or doubles nothing', async () => {
    const created: ChargeView[] = [];
    for (let i = 0; i < CHARGES; i++) {
      const res = await request(() => stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody({ customerId: `cus_failover_${i}` })));
      expect(res.status).toBe(201);
      created.push(res.body as ChargeView);
    }
    const submits = Promise.all(created.map((c) => request(() => stack.http.post(`/charges/${c.id}/submit`).set(stack.auth('merchant')))));
    await waitFor(async () => stack.sim.stats().requests.creates, (n) => n >= 3, 10_000, 'submits to reach the provider');
    const { promotedInMs } = await pair.failover();
    const submitted = await submits;
    expect(submitted.map((s) => s.status).every((s) => s === 200)).toBe(true);

    // A create after the switch, through the same processes.
    const late = await request(() => stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody({ customerId: 'cus_failover_after' })));
    expect(late.status).toBe(201);

    const settled = (v: ChargeView) => ['succeeded', 'failed', 'in_review'].includes(v.status);
    for (const c of created) {
      const view = await waitFor(
        async () => (await request(() => stack.http.get(`/charges/${c.id}`).set(stack.auth('merchant')))).body as ChargeView,
        settled,
        30_000,
        `charge ${c.id} to settle or reach a person`,
      );
      // Present after the switch, and charged at most once.
      expect(view.id).toBe(c.id);
      expect(stack.sim.intents({ customerId: c.customerId }).filter((p) => p.status === 'succeeded').length).toBeLessThanOrEqual(1);
      expect(view.attempts.filter((a) => a.status === 'succeeded').length).toBeLessThanOrEqual(1);
    }
    const [{ open }] = await stack.db.query(
      `SELECT count(*)::int AS open FROM attempts a
        WHERE a.status IN ('pending', 'unknown')
          AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed')`,
    );
    expect(open).toBe(0);

    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.every((a) => a.retryAfter === '1')).toBe(true);
    expect(answers.every((a) => a.status < 500 || a.status === 503)).toBe(true);
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest).toBeLessThan(HANG_MS);
    console.log(`failover: promoted and re-pointed in ${promotedInMs} ms; ${answers.length} requests, ${unavailable.length} answered 503, slowest ${slowest} ms; ${CHARGES} charges, 0 doubles, 0 open attempts`);
  }, 120_000);
});
