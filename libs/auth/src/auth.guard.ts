import { type CanActivate, type ExecutionContext, ForbiddenException, HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import type { ApiRole } from '@app/database';
import { actorHasRole, type Actor } from './actor.js';
import { ApiTokenService } from './api-token.service.js';
import { AuthFailureLimiter } from './auth-failure.limiter.js';
import { ALLOWED_ROLES, PUBLIC_ROUTE } from './auth.decorators.js';

interface GuardedRequest {
  headers: Record<string, string | undefined>;
  ip?: string;
  socket?: { remoteAddress?: string };
  actor?: Actor;
}

/**
 * Global guard: every route needs a bearer token unless marked @Public(); @Roles narrows who may call. An address
 * that keeps failing to authenticate gets 429 instead of 401 (AuthFailureLimiter); a valid token always passes, so
 * junk from one address (or from everyone behind one proxy) never locks real clients out.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokenService,
    private readonly failures: AuthFailureLimiter,
    // The http adapter sets the header, so the guard knows no framework's response type.
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<GuardedRequest>();
    const address = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const actor = (match && this.tokens.cached(match[1])) || (await this.authenticateSlowly(match?.[1] ?? null, address, http.getResponse()));
    const allowed = this.reflector.getAllAndOverride<ApiRole[] | undefined>(ALLOWED_ROLES, targets);
    if (allowed && !actorHasRole(actor, allowed)) {
      throw new ForbiddenException(`this endpoint needs role ${allowed.join(' or ')}; token has ${actor.role}`);
    }
    request.actor = actor;
    return true;
  }

  /** A token not believed from the cache: looked up; a failure is counted against its address. */
  private async authenticateSlowly(token: string | null, address: string, response: unknown): Promise<Actor> {
    const actor = token ? await this.tokens.authenticate(token) : null;
    if (actor) return actor;
    const over = await this.failures.recordFailure(address);
    if (over !== null) {
      this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', String(Math.ceil(over / 1000)));
      throw new HttpException('too many failed authentications from this address; retry later', HttpStatus.TOO_MANY_REQUESTS);
    }
    throw new UnauthorizedException(token ? 'unknown or revoked token' : 'missing bearer token in the Authorization header');
  }
}
