import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@app/config';
import { RedisThrottlerStorage } from '../apps/api/src/edge/redis-throttler.storage.js';
import { waitFor } from './support/wait-for.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `throttle-spec-${randomUUID().slice(0, 8)}`;
/** A storage as one api process holds it, once its Redis connection is up (before that, every request is let through). */
async function storage(): Promise<RedisThrottlerStorage> {
  const created = new RedisThrottlerStorage({ REDIS_URL, QUEUE_PREFIX: prefix } as AppConfig);
  await waitFor(async () => (created as unknown as { redis: Redis }).redis.status, (status) => status === 'ready', 5_000, 'redis ready');
  return created;
}

describe('the rate-limit budget in Redis', () => {
  // Redis's own view of the round trips the storages made: MONITOR sees every script call, filtered by this file's prefix.
  const monitored: string[] = [];
  let monitor: Awaited<ReturnType<Redis['monitor']>>;
  beforeAll(async () => {
    monitor = await new Redis(REDIS_URL).monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (/^eval/i.test(args[0]) && args.some((arg) => arg.includes(prefix))) monitored.push(args.join(' '));
    });
  });
  afterAll(() => monitor.disconnect());

  it('spends a large budget in process: a hundred requests cost a couple of Redis round trips, not a hundred', async () => {
    const one = await storage();
    const key = `default:${randomUUID()}`;
    const before = monitored.length;
    for (let i = 0; i < 100; i++) expect((await one.increment(key, 60_000, 6000)).isBlocked).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50)); // MONITOR's lines arrive on their own connection
    expect(monitored.length - before).toBeGreaterThan(0);
    expect(monitored.length - before).toBeLessThanOrEqual(3);
    one.onModuleDestroy();
  });

  it('never grants more than the limit across processes sharing a token', async () => {
    const [a, b] = [await storage(), await storage()];
    const key = `default:${randomUUID()}`;
    const granted = [];
    for (let i = 0; i < 12; i++) granted.push(!(await (i % 2 ? a : b).increment(key, 60_000, 5)).isBlocked);
    expect(granted.filter(Boolean)).toHaveLength(5);
    const refused = await a.increment(key, 60_000, 5);
    expect(refused).toMatchObject({ isBlocked: true });
    expect(refused.timeToBlockExpire).toBeGreaterThan(0);
    expect(refused.timeToBlockExpire).toBeLessThanOrEqual(60);
    a.onModuleDestroy();
    b.onModuleDestroy();
  });
});
