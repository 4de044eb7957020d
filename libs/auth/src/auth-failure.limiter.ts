import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '@app/config';

/** One fixed window per address: count the failure, start the window on the first, answer what is left of it. */
const FAIL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { n, ttl }`;
const PEEK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
return { n, redis.call('PTTL', KEYS[1]) }`;

/**
 * Failed authentications per client address (a missing, unknown or revoked token), counted in Redis so the budget
 * holds across api processes: past AUTH_FAILURE_LIMIT in AUTH_FAILURE_WINDOW_MS the address gets 429 with
 * Retry-After before its token is even looked up. A caller with a valid token never pays a Redis round trip
 * here; a Redis that does not answer lets requests through (the limit protects capacity; money is guarded by the
 * database), and the health check reports Redis.
 */
@Injectable()
export class AuthFailureLimiter implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(private readonly config: AppConfig) {
    this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    this.redis.on('error', () => undefined);
    this.prefix = `${config.QUEUE_PREFIX}:authfail:`;
  }

  /** Milliseconds until the address may try again, or null when it may try now. */
  async blockedFor(address: string): Promise<number | null> {
    return this.over(await this.run(PEEK, address, []), 0);
  }

  /** Counts one failure; answers the wait when this one went over the limit, or null. */
  async recordFailure(address: string): Promise<number | null> {
    return this.over(await this.run(FAIL, address, [this.config.AUTH_FAILURE_WINDOW_MS]), 1);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private over(reply: [number, number] | null, counted: number): number | null {
    if (!reply) return null;
    const [failures, ttl] = reply;
    return failures + (1 - counted) > this.config.AUTH_FAILURE_LIMIT ? Math.max(ttl, 1000) : null;
  }

  private async run(script: string, address: string, args: number[]): Promise<[number, number] | null> {
    if (this.redis.status === 'wait') await this.redis.connect().catch(() => undefined);
    return ((await this.redis.eval(script, 1, this.prefix + address, ...args).catch(() => null)) as [number, number] | null) ?? null;
  }
}
