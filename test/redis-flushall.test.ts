import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAttemptSweeper } from '@app/resolution';
import { createCharge, getCharge, submit } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const isTerminal = (s: string) => s === 'succeeded' || s === 'failed';

/**
 * A real FLUSHALL: this file runs alone, after every other test file has finished (its own Vitest project
 * with a later group order), so wiping all of Redis cannot disturb anyone else's queues.
 */
describe('after Redis loses every job (FLUSHALL)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // The first resolution try is ten minutes away: only the sweeper can bring the lost jobs back in time.
    stack = await startTestStack({ worker: true, env: { RESOLUTION_BACKOFF_MS: '600000,50' } });
  });
  afterAll(async () => stack.close());

  it('20 unknown attempts in flight are all resolved after a flush, once the sweeper has run', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId }, times: 20 }] });
    const charges = await Promise.all(Array.from({ length: 20 }, () => createCharge(stack, { customerId })));
    const submitted = await Promise.all(charges.map((c) => submit(stack, c.id)));
    expect(submitted.every((v) => v.attempts[0].status === 'unknown')).toBe(true);
    const redis = new Redis(stack.config.REDIS_URL);
    try {
      expect((await redis.keys(`${stack.config.QUEUE_PREFIX}:*`)).length).toBeGreaterThan(0);
      await redis.flushall();
      expect(await redis.dbsize()).toBe(0);
    } finally {
      redis.disconnect();
    }

    const report = await stack.app.get(OpenAttemptSweeper).sweep();
    expect(report.resolutionsScheduled).toBeGreaterThanOrEqual(20);
    const ids = charges.map((c) => c.id);
    await waitFor(
      () => Promise.all(ids.map((id) => getCharge(stack, id))),
      (views) => views.every((v) => isTerminal(v.status)),
      15_000,
      'all 20 charges to resolve',
    );
    const views = await Promise.all(ids.map((id) => getCharge(stack, id)));
    expect(views.every((v) => v.status === 'succeeded')).toBe(true);
    expect(stack.sim.stats().requests.creates).toBe(20);
  });
});
