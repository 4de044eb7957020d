import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException, ForbiddenException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiRole } from '@app/database';
import { actorHasRole, type Actor } from './actor.js';
import { ApiTokenService } from './api-token.service.js';
import { ALLOWED_ROLES, PUBLIC_ROUTE } from './auth.decorators.js';

/** Global guard: every route needs a bearer token unless marked @Public(); @Roles narrows who may call. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; actor?: Actor }>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new UnauthorizedException('missing bearer token in the Authorization header');
    const actor = await this.tokens.authenticate(match[1]);
    if (!actor) throw new UnauthorizedException('unknown or revoked token');
    const allowed = this.reflector.getAllAndOverride<ApiRole[] | undefined>(ALLOWED_ROLES, targets);
    if (allowed && !actorHasRole(actor, allowed)) {
      throw new ForbiddenException(`this endpoint needs role ${allowed.join(' or ')}; token has ${actor.role}`);
    }
    request.actor = actor;
    return true;
  }
}
