import { DomainError } from '@app/common';

/** Bad signature, stale timestamp, unparsable body: 400, and nothing is stored or changed. */
export class WebhookRejectedError extends DomainError {
  readonly code = 'webhook_rejected';
  readonly kind = 'invalid_input';
  constructor(provider: string, reason: string) {
    super(`${provider} webhook rejected: ${reason}`);
  }
}

export class UnknownWebhookProviderError extends DomainError {
  readonly code = 'unknown_webhook_provider';
  readonly kind = 'invalid_input';
  constructor(provider: string) {
    super(`no webhook endpoint for provider "${provider}"`, { provider });
  }
}
