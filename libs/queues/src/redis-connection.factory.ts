import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { redisTopologyOf, type RedisSettings } from '@app/config';

/** A connection to the deployment's Redis, whatever its shape: one server, a Sentinel-managed primary, a Cluster. */
export type RedisClient = Redis | Cluster;

/** The options a caller may choose; where the Redis is and how to log in come from the settings alone. */
export type RedisClientOptions = Pick<RedisOptions, 'lazyConnect' | 'maxRetriesPerRequest' | 'enableOfflineQueue' | 'enableReadyCheck' | 'connectionName'>;

/**
 * Every Redis client of the service is made here, from REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (see
 * RedisSettings), so no process can be pointed at a different Redis than the others, or at a shape it cannot speak.
 * Keys one command or script touches together must share a hash slot on a Cluster: the queue prefix is a {hash tag}
 * (settings refuse anything else there), and every key below it lands in its slot.
 */
export function createRedisClient(settings: RedisSettings, options: RedisClientOptions = {}): RedisClient {
  const topology = redisTopologyOf(settings);
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, options);
    case 'sentinel':
      // ioredis asks the sentinels for the primary, and again after every lost connection: a failover is a reconnect.
      return new Redis({ ...options, sentinels: topology.sentinels, name: topology.name, password: topology.password, sentinelPassword: topology.sentinelPassword });
    case 'cluster': {
      const { lazyConnect, enableOfflineQueue, ...perNode } = options;
      return new Cluster(topology.nodes, {
        lazyConnect,
        enableOfflineQueue,
        // A master's failover takes a couple of node timeouts: keep retrying through it rather than failing the command.
        retryDelayOnClusterDown: 200,
        retryDelayOnFailover: 200,
        redisOptions: { ...perNode, password: topology.password },
      });
    }
  }
}
