import { Injectable } from '@nestjs/common';
import { AuthFailureLimiter } from '@app/auth';
import { AppConfig } from '@app/config';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

/**
 * AUTH_FAILURE_LIMIT failures per AUTH_FAILURE_WINDOW_MS and address, counted by the rate limiter's own fixed-window
 * Redis counters, so the budget holds across api processes; a Redis that does not answer lets requests through (the
 * limit protects capacity; money is guarded by the database). Behind a proxy, TRUST_PROXY makes the address the
 * client's.
 */
@Injectable()
export class RedisAuthFailureLimiter extends AuthFailureLimiter {
  constructor(
    private readonly counters: RedisThrottlerStorage,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async recordFailure(address: string): Promise<number | null> {
    const hit = await this.counters.increment(`authfail:${address}`, this.config.AUTH_FAILURE_WINDOW_MS, this.config.AUTH_FAILURE_LIMIT);
    return hit.isBlocked ? hit.timeToBlockExpire * 1000 : null;
  }
}
