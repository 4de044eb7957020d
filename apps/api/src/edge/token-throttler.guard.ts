import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { hashToken } from '@app/auth';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function hasBearer(context: ExecutionContext): boolean {
  return BEARER.test(context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization ?? '');
}

export function isWebhookRoute(context: ExecutionContext): boolean {
  return (context.switchToHttp().getRequest<{ url?: string }>().url ?? '').startsWith('/webhooks/');
}

/**
 * A budget per API token, shared by every route: the token is who is calling. Webhook routes have a generous
 * budget per client address of their own (a provider retries in bursts). Requests with neither (health,
 * metrics, docs) are not counted; failed authentications are limited by the auth guard.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !hasBearer(context) && !isWebhookRoute(context);
  }

  /** Keyed by the token's hash, never the token itself (Redis keys are not secret). */
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const headers = request.headers as Record<string, string | undefined>;
    return hashToken(BEARER.exec(headers.authorization ?? '')![1]);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }
}
