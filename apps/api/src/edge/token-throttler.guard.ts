import { type CanActivate, type ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '@app/auth';
import { AppConfig } from '@app/config';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

/**
 * A budget per API token, shared by every route: the token is who is calling. It is spent only once the auth
 * guard (which runs first) has found the token, so a made-up bearer on a public route opens no budget of its own.
 * Webhook routes, told by the route that matched (never the raw URL: `/%77ebhooks/...` reaches the same handler),
 * have a generous budget per client address of their own (a provider retries in bursts). Other requests (health,
 * metrics, docs) are not counted; failed authentications are limited by the auth guard.
 *
 * The budgets are spent in RedisThrottlerStorage (leased from Redis, shared by every api process). This guard
 * replaced @nestjs/throttler's, which for two fixed budgets looked up a dozen route metadata keys and allocated
 * several promises per request: 5 % of the api's allocations per charge. Headers and the 429 are as before:
 * X-RateLimit-Limit/-Remaining/-Reset (with a `-webhooks` suffix for the webhook budget) and Retry-After.
 */
@Injectable()
export class TokenThrottlerGuard implements CanActivate {
  constructor(
    private readonly storage: RedisThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { actor?: Actor }>();
    const reply = http.getResponse<FastifyReply>();
    // Keyed by the token's name, never the token itself (Redis keys are not secret).
    if (request.actor) await this.spend(reply, `default:token:${request.actor.tokenName}`, this.config.API_RATE_LIMIT, '');
    if (request.routeOptions.url?.startsWith('/webhooks/')) await this.spend(reply, `webhooks:address:${request.ip}`, this.config.WEBHOOK_RATE_LIMIT, '-webhooks');
    return true;
  }

  private async spend(reply: FastifyReply, key: string, limit: number, suffix: string): Promise<void> {
    const ttl = this.config.API_RATE_LIMIT_WINDOW_MS;
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storage.increment(key, ttl, limit);
    if (isBlocked) {
      reply.header(`Retry-After${suffix}`, timeToBlockExpire);
      throw new HttpException('ThrottlerException: Too Many Requests', HttpStatus.TOO_MANY_REQUESTS);
    }
    reply.header(`X-RateLimit-Limit${suffix}`, limit);
    reply.header(`X-RateLimit-Remaining${suffix}`, Math.max(0, limit - totalHits));
    reply.header(`X-RateLimit-Reset${suffix}`, timeToExpire);
  }
}
