import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface.js';
import { Redis } from 'ioredis';
import { AppConfig } from '@app/config';

/** One fixed window per key: count the hit, start the window on the first, report what is left of it. */
const HIT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { hits, ttl }`;

/**
 * Rate-limit counters in Redis, so a token's budget holds across every api process (the in-memory default
 * would give each process its own). A Redis that does not answer lets the request through: the limit
 * protects capacity, it is not what keeps money safe, and the API must not stop with the queue's Redis.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(config: AppConfig) {
    this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => undefined); // a refused hit is let through (above); the health check reports Redis
    this.prefix = `${config.QUEUE_PREFIX}:throttle:`;
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const reply = (await this.redis.eval(HIT, 1, this.prefix + key, ttl).catch(() => null)) as [number, number] | null;
    if (!reply) return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    const [totalHits, pttl] = reply;
    const seconds = Math.max(1, Math.ceil(pttl / 1000));
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
