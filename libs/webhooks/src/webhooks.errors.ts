import { DomainError } from '@app/common';

/** Bad signature, stale timestamp, unparsable body: 400, and nothing is stored or changed. */
export class WebhookRejectedError extends DomainError {
  readonly code = 'webhook_rejected';
  constructor(provider: string, reason: string) {
    super(`${provider} webhook rejected: ${reason}`);
  }
}

export class UnknownWebhookProviderError extends DomainError {
  readonly code = 'unknown_provider';
  constructor(provider: string) {
    super(`no webhook endpoint for provider "${provider}"`, { provider });
  }
}
