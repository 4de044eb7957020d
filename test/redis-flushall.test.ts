import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAttemptSweeper } from '@app/resolution';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { createCharge, getCharge, submit } from './support/charges.js';
import { balanceOf, fundedAccount, payoutBody } from './support/payouts.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const isTerminal = (s: string) => s === 'succeeded' || s === 'failed';

/**
 * A real FLUSHALL: this file runs alone, after every other test file has finished (its own Vitest project
 * with a later group order), so wiping all of Redis cannot disturb anyone else's queues.
 */
describe('after Redis loses every job (FLUSHALL)', () => {
  let stack: TestStack;
  let efi: EfiSimulator;
  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_000 });
    // The first resolution try is ten minutes away: only the sweeper can bring the lost jobs back in time.
    // A database of its own: the sweeper would otherwise resume other files' open attempts against this simulator.
    const databaseUrl = await scratchDatabase('redis_flushall');
    stack = await startTestStack({ worker: true, efi, env: { DATABASE_URL: databaseUrl, RESOLUTION_BACKOFF_MS: '600000,50' } });
  });
  afterAll(async () => {
    await stack.close();
    await efi.close();
  });

  async function flushAll(): Promise<void> {
    const redis = new Redis(stack.config.REDIS_URL);
    try {
      expect((await redis.keys(`${stack.config.QUEUE_PREFIX}:*`)).length).toBeGreaterThan(0);
      await redis.flushall();
      expect(await redis.dbsize()).toBe(0);
    } finally {
      redis.disconnect();
    }
  }

  it('10 unknown payouts keep their reservations through a flush and are each debited once after the sweeper has run', async () => {
    const accountId = await fundedAccount(stack, 10_000);
    // Every Pix executes, then its response is lost: all ten are unknown, their money held.
    efi.setFaults({ rules: [{ fault: 'hang_after_create', times: 10 }] });
    const created = await Promise.all(Array.from({ length: 10 }, () => stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).send(payoutBody(1_000))));
    expect(created.every((r) => r.status === 201 && r.body.attempts[0].status === 'unknown')).toBe(true);
    expect(efi.stats().faultsInjected.hang_after_create).toBe(10);
    await flushAll();
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 0, reservedCents: 10_000 });

    const report = await stack.app.get(OpenAttemptSweeper).sweep();
    expect(report.resolutionsScheduled).toBeGreaterThanOrEqual(10);
    const read = () => Promise.all(created.map(async (r) => (await stack.http.get(`/payouts/${r.body.id}`).set(stack.auth('merchant'))).body.status as string));
    await waitFor(read, (statuses) => statuses.every(isTerminal), 15_000, 'all 10 payouts to resolve');
    expect((await read()).every((s) => s === 'succeeded')).toBe(true);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 0, reservedCents: 0 });
    expect(efi.stats().requests.sends).toBe(10);
    expect(Object.values(efi.stats().debitsByIdEnvio).every((n) => n === 1)).toBe(true);
  });

  it('20 unknown attempts in flight are all resolved after a flush, once the sweeper has run', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId }, times: 20 }] });
    const charges = await Promise.all(Array.from({ length: 20 }, () => createCharge(stack, { customerId })));
    const submitted = await Promise.all(charges.map((c) => submit(stack, c.id)));
    expect(submitted.every((v) => v.attempts[0].status === 'unknown')).toBe(true);
    await flushAll();

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
