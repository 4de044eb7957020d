import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { redisCli, startRedisSentinelSet, type RedisSentinelTopology } from './support/redis-topologies.js';
import { EFI_WEBHOOK_HMAC, stormThroughSwitch } from './support/redis-storm.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * A real Sentinel set from the machine's redis-server: a primary, a replica, 3 sentinels (quorum 2). Every client
 * asks the sentinels where the primary is; the primary is killed with SIGKILL mid-run, the sentinels promote the
 * replica, and every client follows without a restart. What asynchronous replication lost the sweeper rebuilds.
 */
describe('on a Sentinel-managed Redis whose primary is killed mid-run', () => {
  let set: RedisSentinelTopology;
  let efi: EfiSimulator;
  let stack: TestStack;
  const prefix = `sentinel-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    set = await startRedisSentinelSet();
    efi = await startEfiSimulator({ hangMs: 600 });
    // Its own database: the sweeper would otherwise resume other files' open attempts against this simulator.
    const databaseUrl = await scratchDatabase('redis_sentinel');
    stack = await startTestStack({
      worker: true,
      efi,
      queuePrefix: prefix,
      env: { REDIS_URL: undefined, REDIS_SENTINELS: set.sentinels, REDIS_SENTINEL_NAME: set.name, DATABASE_URL: databaseUrl, SWEEPER_INTERVAL_MS: '1000', EFI_WEBHOOK_HMAC },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
    await set?.stop();
  });

  it('charges, resolution queries, webhooks and payouts go on after the primary is killed and the replica promoted: 0 doubles, 0 orphans', async () => {
    const figures = await stormThroughSwitch(stack, efi, async () => {
      // The queues live on the Sentinel set's primary, the one about to die.
      expect(await redisCli(set.primaryPort, '--scan', '--pattern', `${prefix}:attempt-resolution-stripe:*`)).not.toBe('');
      set.kill(set.primaryPort);
      const startedAt = Date.now();
      await waitFor(() => set.currentPrimary().catch(() => 0), (port) => port === set.replicaPort, 30_000, 'the sentinels to promote the replica');
      await waitFor(() => redisCli(set.replicaPort, 'role').catch(() => ''), (role) => role.startsWith('master'), 10_000, 'the replica to take the primary role');
      console.log(`  sentinel: primary ${set.primaryPort} killed, replica ${set.replicaPort} promoted in ${Date.now() - startedAt} ms`);
    });
    // Work after the switch reached the promoted primary.
    expect(await redisCli(set.replicaPort, '--scan', '--pattern', `${prefix}:*`)).not.toBe('');
    console.log(`  sentinel invariants: ${JSON.stringify(figures)}`);
  }, 90_000);
});
