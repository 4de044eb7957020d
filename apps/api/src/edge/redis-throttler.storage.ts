import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface.js';
import { AppConfig } from '@app/config';
import { createRedisClient, type RedisClient } from '@app/queues';

/**
 * Takes up to ARGV[3] hits of a fixed window's budget (ARGV[2]) at once; the window (ARGV[1] ms) starts with
 * its first hit. Returns the hits granted (0 once the budget is spent), the hits granted so far and the window's rest.
 */
const LEASE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.max(0, math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) - used))
if grant > 0 then used = redis.call('INCRBY', KEYS[1], grant) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { grant, used, ttl }`;

/** Hits leased from Redis at once: 1 % of the budget, so a process may leave at most that unused while another is refused. */
const leaseSize = (limit: number) => Math.max(1, Math.floor(limit / 100));

interface Lease {
  /** Hits of this lease not spent yet. */
  left: number;
  /** Hits granted to all processes when this lease was taken. */
  used: number;
  /** Redis had nothing left for this window: refuse locally until it ends. */
  spent: boolean;
  expiresAt: number;
}

const LET_THROUGH: ThrottlerStorageRecord = { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };

/**
 * Rate-limit budgets shared by every api process through Redis, spent in process: each process leases a slice
 * of a key's window budget (one round trip per slice, not per request) and spends it locally, so no process can
 * grant a hit Redis did not grant it and the sum never passes the limit. A Redis that does not answer lets the
 * request through: the limit protects capacity, it is not what keeps money safe, and the API must not stop with
 * the queue's Redis.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<boolean>>();

  constructor(config: AppConfig) {
    this.redis = createRedisClient(config, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => undefined); // a refused lease lets the hit through (above); the health check reports Redis
    // LEASE touches one key: correct on a Cluster whatever slot the key hashes to.
    this.prefix = `${config.QUEUE_PREFIX}:throttle:`;
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    for (;;) {
      const lease = this.leases.get(key);
      const rest = lease ? lease.expiresAt - Date.now() : 0;
      if (lease && rest > 0 && (lease.left > 0 || lease.spent)) {
        const seconds = Math.max(1, Math.ceil(rest / 1000));
        if (lease.spent) return { totalHits: lease.used + 1, timeToExpire: seconds, isBlocked: true, timeToBlockExpire: seconds };
        lease.left--;
        return { totalHits: lease.used - lease.left, timeToExpire: seconds, isBlocked: false, timeToBlockExpire: 0 };
      }
      if (!(await this.take(key, ttl, limit))) return LET_THROUGH;
    }
  }

  /** One lease per key at a time: concurrent requests wait for the same round trip. */
  private take(key: string, ttl: number, limit: number): Promise<boolean> {
    const pending = this.taking.get(key);
    if (pending) return pending;
    const taken = this.lease(key, ttl, limit).finally(() => this.taking.delete(key));
    this.taking.set(key, taken);
    return taken;
  }

  private async lease(key: string, ttl: number, limit: number): Promise<boolean> {
    const reply = (await this.redis.eval(LEASE, 1, this.prefix + key, ttl, limit, leaseSize(limit)).catch(() => null)) as [number, number, number] | null;
    if (!reply) return false;
    const [grant, used, pttl] = reply;
    const now = Date.now();
    // Windows of tokens no longer calling: dropped now and then, so the map stays as small as the active callers.
    if (this.leases.size > 1000) for (const [k, old] of this.leases) if (old.expiresAt <= now) this.leases.delete(k);
    this.leases.set(key, { left: grant, used, spent: grant === 0, expiresAt: now + pttl });
    return true;
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
