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

/**
 * Failed authentications per client address (a missing, unknown or revoked token), counted in Redis so the budget
 * holds across api processes: past AUTH_FAILURE_LIMIT in AUTH_FAILURE_WINDOW_MS each further failure from the
 * address is a 429 with Retry-After. A caller with a valid token never pays a Redis round trip here, and is never
 * refused by it; a Redis that does not answer lets requests through (the limit protects capacity; money is guarded
 * by the database), and the health check reports Redis. Behind a proxy, set TRUST_PROXY so the address is the
 * client's, not the proxy's.
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

  /** Counts one failure; answers the wait when this one went over the limit, or null. */
  async recordFailure(address: string): Promise<number | null> {
    const reply = await this.run(FAIL, address, [this.config.AUTH_FAILURE_WINDOW_MS]);
    if (!reply) return null;
    const [failures, ttl] = reply;
    return failures > this.config.AUTH_FAILURE_LIMIT ? Math.max(ttl, 1000) : null;
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  private async run(script: string, address: string, args: number[]): Promise<[number, number] | null> {
    if (this.redis.status === 'wait') await this.redis.connect().catch(() => undefined);
    return ((await this.redis.eval(script, 1, this.prefix + address, ...args).catch(() => null)) as [number, number] | null) ?? null;
  }
}
