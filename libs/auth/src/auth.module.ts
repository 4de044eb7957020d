import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '@app/config';
import { ApiTokenService } from './api-token.service.js';
import { AuthGuard } from './auth.guard.js';

@Module({
  // AuthFailureLimiter is the api's to provide (its rate limiter's Redis counters), globally.
  providers: [ApiTokenService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [ApiTokenService],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(
    private readonly tokens: ApiTokenService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.tokens.bootstrap(this.config.API_TOKENS);
  }
}
