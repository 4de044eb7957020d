import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuthFailureLimiter } from '@app/auth';
import { AppConfig } from '@app/config';
import { RedisAuthFailureLimiter } from './auth-failure.redis-limiter.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';
import { TokenThrottlerGuard, hasBearer, isWebhookRoute } from './token-throttler.guard.js';

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
  imports: [
    ThrottlerStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [ThrottlerStorageModule],
      inject: [AppConfig, RedisThrottlerStorage],
      useFactory: (config: AppConfig, storage: RedisThrottlerStorage) => ({
        // Named 'default' so the headers are the standard Retry-After and X-RateLimit-*, with no suffix.
        throttlers: [
          { name: 'default', limit: config.API_RATE_LIMIT, ttl: config.API_RATE_LIMIT_WINDOW_MS, skipIf: (context) => !hasBearer(context) },
          {
            name: 'webhooks',
            limit: config.WEBHOOK_RATE_LIMIT,
            ttl: config.API_RATE_LIMIT_WINDOW_MS,
            skipIf: (context) => !isWebhookRoute(context),
            getTracker: (req: { ip?: string; socket?: { remoteAddress?: string } }) => `address:${req.ip ?? req.socket?.remoteAddress ?? 'unknown'}`,
          },
        ],
        storage,
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: TokenThrottlerGuard }],
})
export class RateLimitModule {}
