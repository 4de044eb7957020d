import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptTransitionWriter } from '@app/attempts';
import type { ChargeView } from '@app/charges';
import { EventNotificationListener, ObjectWaiters } from '@app/events';
import { createCharge, submit } from './support/charges.js';
import { countFaultsFrom } from './support/fault-counter.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 34 part 5: `GET /charges/:id?waitForFinal=` answers when the charge's event commits, woken by the api's one
 * LISTEN connection. Charges are left processing by a real fault at the simulator (500 before create: the attempt
 * is unknown), and their outcome is committed here the way the resolver commits one (the transition writer, in a
 * transaction whose COMMIT the test times).
 */
describe('a checkout that waits for the outcome', () => {
  let stack: TestStack;
  let waiters: ObjectWaiters;
  beforeAll(async () => {
    stack = await startTestStack({ env: { LONG_POLL_MAX_WAITERS: '2' } });
    waiters = stack.app.get(ObjectWaiters);
  });
  afterAll(async () => stack.close());

  /** A charge whose only attempt is unknown (the simulator answered 500 before creating anything): processing. */
  async function processingCharge(): Promise<{ chargeId: string; attemptId: string }> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const faults = countFaultsFrom(stack.sim);
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const view = await submit(stack, (await createCharge(stack, { customerId })).id);
    expect(faults('500_before_create')).toBe(1);
    expect(view.status).toBe('processing');
    return { chargeId: view.id, attemptId: view.attempts[0].id };
  }

  /** A GET that waits, started now; resolves with the response and when it arrived. */
  function waitingGet(chargeId: string, waitForFinal: number | string) {
    return new Promise<{ status: number; body: ChargeView & { code?: string }; headers: Record<string, string>; at: number }>((resolve, reject) => {
      stack.http
        .get(`/charges/${chargeId}`)
        .query({ waitForFinal })
        .set(stack.auth('merchant'))
        .then((res) => resolve({ status: res.status, body: res.body, headers: res.headers, at: performance.now() }), reject);
    });
  }

  /** Fails the unknown attempt in a transaction of its own; the instants just before and after its COMMIT. */
  async function commitOutcome(attemptId: string): Promise<{ before: number; after: number }> {
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const applied = await stack.app.get(AttemptTransitionWriter).apply({ attemptId, from: 'unknown', to: 'failed', cause: 'resolver', actor: 'long-poll-test' }, runner.manager);
      expect(applied).toBe(true);
      const before = performance.now();
      await runner.commitTransaction();
      return { before, after: performance.now() };
    } finally {
      await runner.release();
    }
  }

  const waiting = (n: number) => waitFor(async () => waiters.size, (size) => size === n, 5_000, `${n} waiting requests`);

  it('answers within 100 ms of the commit that settles the charge, woken by its event', async () => {
    const { chargeId, attemptId } = await processingCharge();
    const started = performance.now();
    const answer = waitingGet(chargeId, 10_000);
    await waiting(1);
    // Nothing answers while the charge is processing: the wait is really waiting.
    await new Promise((r) => setTimeout(r, 300));
    expect(waiters.size).toBe(1);

    const commit = await commitOutcome(attemptId);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    const latency = res.at - commit.after;
    console.log(`long-poll wake: ${(res.at - commit.before).toFixed(1)} ms from COMMIT sent, ${latency.toFixed(1)} ms from COMMIT acknowledged`);
    expect(res.at - commit.before).toBeLessThan(100);
    // Woken by the commit, not the 10 s timeout.
    expect(res.at - started).toBeLessThan(5_000);
    expect(waiters.size).toBe(0);
  });

  it('answers at once for a charge that is already final, and with the current view at the timeout', async () => {
    const final = await submit(stack, (await createCharge(stack)).id);
    expect(final.status).toBe('succeeded');
    const t0 = performance.now();
    const res = await waitingGet(final.id, 30_000);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('succeeded');
    expect(res.at - t0).toBeLessThan(1_000);

    const { chargeId } = await processingCharge();
    const t1 = performance.now();
    const timedOut = await waitingGet(chargeId, 400);
    expect(timedOut.status).toBe(200);
    expect(timedOut.body.status).toBe('processing');
    expect(timedOut.at - t1).toBeGreaterThanOrEqual(390);
    expect(timedOut.at - t1).toBeLessThan(3_000);
  });

  it('refuses a third concurrent wait with 429 and Retry-After when the bound is 2, and serves waits again once they end', async () => {
    const { chargeId, attemptId } = await processingCharge();
    const first = waitingGet(chargeId, 10_000);
    const second = waitingGet(chargeId, 10_000);
    await waiting(2);
    const third = await waitingGet(chargeId, 10_000);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.body.code).toBe('long_poll_capacity');
    // A read without waitForFinal is never refused for it.
    expect((await stack.http.get(`/charges/${chargeId}`).set(stack.auth('merchant'))).status).toBe(200);

    await commitOutcome(attemptId);
    expect((await first).body.status).toBe('failed');
    expect((await second).body.status).toBe('failed');
    expect(waiters.size).toBe(0);
    expect((await waitingGet(chargeId, 10_000)).status).toBe(200);
  });

  it('gives the place back when the client goes away', async () => {
    const { chargeId } = await processingCharge();
    const aborted = new AbortController();
    const gone = new Promise<void>((resolve) => {
      const req = request(`${stack.baseUrl}/charges/${chargeId}?waitForFinal=20000`, { headers: stack.auth('merchant'), signal: aborted.signal });
      req.on('error', () => resolve());
      req.end();
    });
    await waiting(1);
    aborted.abort();
    await gone;
    await waiting(0);
  });

  it('refuses a waitForFinal outside 0..30000 ms with 400 naming it', async () => {
    const { chargeId } = await processingCharge();
    for (const bad of ['30001', '-1', 'soon', '1.5', '1e3', '100&waitForFinal=200']) {
      const res = await stack.http.get(`/charges/${chargeId}?waitForFinal=${bad}`).set(stack.auth('merchant'));
      expect(res.status, `waitForFinal=${bad}`).toBe(400);
      expect(res.body.message).toMatch(/waitForFinal/);
    }
    expect((await waitingGet(chargeId, '0')).body.status).toBe('processing');
    // Another merchant's charge is not found, waiting or not.
    expect((await waitingGet(randomUUID(), 1_000)).status).toBe(404);
    expect(waiters.size).toBe(0);
  });

  it('listens again after its connection is killed, and a wait still wakes at the commit', async () => {
    const listener = stack.app.get(EventNotificationListener);
    const pid = listener.backendPid;
    expect(pid).not.toBeNull();
    const { chargeId, attemptId } = await processingCharge();
    const answer = waitingGet(chargeId, 10_000);
    await waiting(1);
    // The fault: PostgreSQL ends the listening connection (as a restart or failover does).
    await stack.db.query(`SELECT pg_terminate_backend($1)`, [pid]);
    await waitFor(async () => listener.backendPid, (now) => now !== null && now !== pid, 5_000, 'the listener to reconnect');
    expect((await stack.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1`, [listener.backendPid]))[0].n).toBe(1);

    const commit = await commitOutcome(attemptId);
    const res = await answer;
    expect(res.body.status).toBe('failed');
    expect(res.at - commit.before).toBeLessThan(100);
  });
});
