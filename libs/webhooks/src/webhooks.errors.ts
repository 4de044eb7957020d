import { DomainError } from '@app/common';

/** Bad signature, stale timestamp, unparsable body: 400, and nothing is stored or changed. */
export class WebhookRejectedError extends DomainError {
  readonly code = 'webhook_rejected';
  readonly kind = 'invalid_input';
  constructor(provider: string, reason: string) {
    super(`${provider} webhook rejected: ${reason}`);
  }
}

/** No such provider, or one not configured with its own webhook secret: there is no endpoint to deliver to. */
export class UnknownWebhookProviderError extends DomainError {
  readonly code = 'unknown_webhook_provider';
  readonly kind = 'not_found';
  constructor(provider: string) {
    super(`no webhook endpoint for provider "${provider}"`, { provider });
  }
}
