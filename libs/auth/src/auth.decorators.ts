import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { ApiRole } from '@app/database';
import type { Actor } from './actor.js';

export const PUBLIC_ROUTE = 'auth:public';
export const ALLOWED_ROLES = 'auth:roles';

/** Webhooks, health, metrics and docs authenticate otherwise (or not at all). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
export const Roles = (...roles: ApiRole[]) => SetMetadata(ALLOWED_ROLES, roles);

export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  return context.switchToHttp().getRequest<{ actor: Actor }>().actor;
});
