import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import type { AppConfig } from '@app/config';
import { ProviderQueryPacer, busiestWindow, type RedisClient } from '@app/queues';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { RedisThrottlerStorage } from '../apps/api/src/edge/redis-throttler.storage.js';
import { redisCli, startRedisCluster, type RedisClusterTopology } from './support/redis-topologies.js';
import { EFI_WEBHOOK_HMAC, stormThroughSwitch } from './support/redis-storm.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * A real Redis Cluster from the machine's redis-server: 3 masters with a replica each. Bull's scripts touch several
 * keys of a queue at once, which a Cluster serves only from one slot: the {hash tag} prefix puts them there. The
 * master holding that slot is killed with SIGKILL mid-run; its replica takes over, and what asynchronous replication
 * lost the sweeper rebuilds from PostgreSQL.
 */
describe('on a Redis Cluster whose master is killed mid-run', () => {
  let cluster: RedisClusterTopology;
  let efi: EfiSimulator;
  let stack: TestStack;
  const prefix = `{cluster-${randomUUID().slice(0, 8)}}`;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    efi = await startEfiSimulator({ hangMs: 600 });
    // Its own database: the sweeper would otherwise resume other files' open attempts against this simulator.
    const databaseUrl = await scratchDatabase('redis_cluster');
    stack = await startTestStack({
      worker: true,
      efi,
      queuePrefix: prefix,
      env: { REDIS_URL: undefined, REDIS_CLUSTER_NODES: cluster.nodes, DATABASE_URL: databaseUrl, SWEEPER_INTERVAL_MS: '1000', EFI_WEBHOOK_HMAC },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
    await cluster?.stop();
  });

  it("keeps a provider's query budget and a token's request budget across two processes on the Cluster", async () => {
    const settings = { REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: prefix } as AppConfig;
    // Two pacers and two throttler storages with their own Cluster connections stand for two processes.
    const pacers = [new ProviderQueryPacer(settings), new ProviderQueryPacer(settings)];
    const storages = [new RedisThrottlerStorage(settings), new RedisThrottlerStorage(settings)];
    try {
      const taken: number[] = [];
      const caller = async (pacer: ProviderQueryPacer) => {
        for (let i = 0; i < 5; i++) taken.push((await pacer.take('stripe', 30), performance.now()));
      };
      await Promise.all(pacers.flatMap((pacer) => Array.from({ length: 4 }, () => caller(pacer))));
      expect(taken).toHaveLength(40);
      expect(busiestWindow(taken)).toBeLessThanOrEqual(30);

      for (const storage of storages) await waitFor(async () => (storage as unknown as { redis: RedisClient }).redis.status, (status) => status === 'ready', 10_000, 'the Cluster connection');
      const key = `default:${randomUUID()}`;
      const granted: boolean[] = [];
      for (let i = 0; i < 12; i++) granted.push(!(await storages[i % 2].increment(key, 60_000, 5)).isBlocked);
      expect(granted.filter(Boolean)).toHaveLength(5);
    } finally {
      for (const one of [...pacers, ...storages]) one.onModuleDestroy();
    }
  });

  it('charges, resolution queries, webhooks and payouts go on after the master is killed: 0 doubles, 0 orphans', async () => {
    const figures = await stormThroughSwitch(stack, efi, async () => {
      const master = await cluster.masterOf(prefix);
      // The queues live on the Cluster, in the hash tag's slot, on the master about to die.
      const slot = await redisCli(master, 'cluster', 'keyslot', prefix);
      const keys = (await redisCli(master, 'cluster', 'getkeysinslot', slot, '1000')).split('\n').filter((k) => k.startsWith(`${prefix}:`));
      expect(keys.some((k) => k.startsWith(`${prefix}:attempt-resolution-stripe:`)), keys.join(' ')).toBe(true);
      cluster.kill(master);
      const startedAt = Date.now();
      // An election a loaded machine delays is retried by the replica (every few node timeouts): seen failing 20 s once.
      await cluster.waitHealthy(60_000);
      const promoted = await cluster.masterOf(prefix);
      expect(promoted).not.toBe(master);
      console.log(`  cluster: master ${master} of ${prefix} killed, replica ${promoted} promoted in ${Date.now() - startedAt} ms`);
    });
    console.log(`  cluster invariants: ${JSON.stringify(figures)}`);
  }, 150_000);
});
