import { describe, expect, it } from 'vitest';
import { parseNodeList, redisSettingsProblems, redisTopologyOf } from './redis-topology.js';

describe('Redis settings', () => {
  it.each([
    ['10.0.0.5:26379', [{ host: '10.0.0.5', port: 26379 }]],
    [' redis-a:7000 , redis-b.internal:7001', [{ host: 'redis-a', port: 7000 }, { host: 'redis-b.internal', port: 7001 }]],
    ['[::1]:6379', [{ host: '::1', port: 6379 }]],
  ])('reads the node list %j', (raw, nodes) => {
    expect(parseNodeList(raw)).toEqual({ nodes });
  });

  it.each([['redis-a'], [':7000'], ['redis-a:'], ['redis-a:70000'], ['redis-a:7000,'], ['redis a:7000'], ['redis-a:0x10']])('names the bad entry of %j', (raw) => {
    expect(parseNodeList(raw)).toMatchObject({ problem: expect.stringMatching(/^entry \d+ \(".*"\) is not host:port/) });
  });

  it.each([
    ['one Redis by URL', { REDIS_URL: 'redis://r:6379/2' }, []],
    ['nothing (the default URL)', {}, []],
    ['a Sentinel set', { REDIS_SENTINELS: 'a:26379,b:26379', REDIS_SENTINEL_NAME: 'main', REDIS_SENTINEL_PASSWORD: 's', REDIS_PASSWORD: 'p' }, []],
    ['a Cluster with a hash-tag prefix', { REDIS_CLUSTER_NODES: 'a:7000', QUEUE_PREFIX: '{charge-once}', REDIS_PASSWORD: 'p' }, []],
    ['REDIS_URL with sentinels', { REDIS_URL: 'redis://r', REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_NAME: 'm' }, [/REDIS_URL, REDIS_SENTINELS: set only one of/]],
    ['sentinels with cluster nodes', { REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER_NODES: 'b:2', QUEUE_PREFIX: '{x}' }, [/REDIS_SENTINELS, REDIS_CLUSTER_NODES: set only one of/]],
    ['sentinels without a name', { REDIS_SENTINELS: 'a:1' }, [/REDIS_SENTINEL_NAME: must be set/]],
    ['a sentinel name alone', { REDIS_SENTINEL_NAME: 'm' }, [/REDIS_SENTINEL_NAME: only means something/]],
    ['a sentinel password alone', { REDIS_SENTINEL_PASSWORD: 's' }, [/REDIS_SENTINEL_PASSWORD: only means something/]],
    ['REDIS_PASSWORD with REDIS_URL', { REDIS_URL: 'redis://r', REDIS_PASSWORD: 'p' }, [/REDIS_PASSWORD: only means something/]],
    ['a malformed sentinel list', { REDIS_SENTINELS: 'a:1,b', REDIS_SENTINEL_NAME: 'm' }, [/REDIS_SENTINELS: entry 2 \("b"\)/]],
    ['a malformed cluster list', { REDIS_CLUSTER_NODES: 'a:99999', QUEUE_PREFIX: '{x}' }, [/REDIS_CLUSTER_NODES: entry 1/]],
    ['a Cluster with the default prefix', { REDIS_CLUSTER_NODES: 'a:7000' }, [/QUEUE_PREFIX: must be a Redis Cluster hash tag/]],
    ['a Cluster with a plain prefix', { REDIS_CLUSTER_NODES: 'a:7000', QUEUE_PREFIX: 'charge-once' }, [/QUEUE_PREFIX: must be a Redis Cluster hash tag/]],
  ])('%s', (_name, given, expected) => {
    const problems = redisSettingsProblems(given);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(problems[i]).toMatch(pattern));
  });

  it('never repeats a password or a URL in a problem', () => {
    const problems = redisSettingsProblems({ REDIS_URL: 'redis://:hunter2@r', REDIS_PASSWORD: 'hunter3', REDIS_SENTINEL_PASSWORD: 'hunter4' });
    expect(problems.join('\n')).not.toMatch(/hunter/);
  });

  it('names the shape the settings describe', () => {
    expect(redisTopologyOf({})).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(redisTopologyOf({ REDIS_URL: 'redis://r:1/3' })).toEqual({ kind: 'single', url: 'redis://r:1/3' });
    expect(redisTopologyOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_NAME: 'm', REDIS_PASSWORD: 'p' })).toEqual({
      kind: 'sentinel',
      sentinels: [{ host: 'a', port: 1 }],
      name: 'm',
      password: 'p',
      sentinelPassword: undefined,
    });
    expect(redisTopologyOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: 'a:1,b:2' })).toEqual({ kind: 'cluster', nodes: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }], password: undefined });
  });
});
