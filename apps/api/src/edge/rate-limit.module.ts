import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthFailureLimiter } from '@app/auth';
import { RedisAuthFailureLimiter } from './auth-failure.redis-limiter.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';
import { TokenThrottlerGuard } from './token-throttler.guard.js';

/**
 * Holds the counters as a provider, so Nest closes its Redis connection with the app; global, so the auth guard
 * finds the failed-authentication limiter counted on the same counters.
 */
@Global()
@Module({
  providers: [RedisThrottlerStorage, { provide: AuthFailureLimiter, useClass: RedisAuthFailureLimiter }],
  exports: [RedisThrottlerStorage, AuthFailureLimiter],
})
class ThrottlerStorageModule {}

/**
 * Per-token rate limit (API_RATE_LIMIT requests per API_RATE_LIMIT_WINDOW_MS), and a generous per-address one for
 * the webhook routes (WEBHOOK_RATE_LIMIT): 429 with Retry-After past either. Failed authentications have their own
 * low per-address budget (AuthFailureLimiter, in the auth guard).
 */
@Module({
  imports: [ThrottlerStorageModule],
  providers: [{ provide: APP_GUARD, useClass: TokenThrottlerGuard }],
})
export class RateLimitModule {}
