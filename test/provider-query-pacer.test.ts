import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@app/config';
import { ProviderQueryPacer, busiestWindow } from '@app/queues';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_PREFIX = `pace-spec-${randomUUID().slice(0, 8)}`;

describe("a provider's query budget, shared through Redis", () => {
  // Two pacers with their own Redis connections stand for two worker processes.
  const pacers = [new ProviderQueryPacer({ REDIS_URL, QUEUE_PREFIX } as AppConfig), new ProviderQueryPacer({ REDIS_URL, QUEUE_PREFIX } as AppConfig)];
  afterAll(() => pacers.forEach((pacer) => pacer.onModuleDestroy()));

  it('never lets two processes together take more than the budget in any sliding second', async () => {
    const perSecond = 40;
    const taken: number[] = [];
    // Eight callers in each process, as a worker's concurrent jobs, each taking slots as fast as it gets them.
    const caller = async (pacer: ProviderQueryPacer) => {
      for (let i = 0; i < 6; i++) {
        await pacer.take('stripe', perSecond);
        taken.push(performance.now());
      }
    };
    await Promise.all(pacers.flatMap((pacer) => Array.from({ length: 8 }, () => caller(pacer))));
    expect(taken).toHaveLength(96);
    expect(busiestWindow(taken)).toBeLessThanOrEqual(perSecond);
  });

  it("keeps one provider's backlog out of another's budget", async () => {
    const backlog = Array.from({ length: 20 }, () => pacers[0].take('asaas', 10));
    const started = performance.now();
    await pacers[1].take('efi', 10);
    // Asaas' queued slots (two seconds of its budget) are not efi's: efi's first slot is now.
    expect(performance.now() - started).toBeLessThan(1000);
    await Promise.all(backlog);
  });
});
