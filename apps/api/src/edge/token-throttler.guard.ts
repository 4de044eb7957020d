import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { hashToken } from '@app/auth';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * A budget per API token, shared by every route: the token is who is calling. Requests without a bearer
 * token (webhooks, health, metrics, docs) are not counted here; a provider's webhook retries must never
 * be refused for load.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return !BEARER.test(request.headers.authorization ?? '');
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
