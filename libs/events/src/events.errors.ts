import { DomainError } from '@app/common';

/** 503: no EVENTS_ENCRYPTION_KEY is set, so no endpoint secret can be stored or read. */
export class EventsKeyMissingError extends DomainError {
  readonly code = 'events_encryption_key_missing';
  readonly kind = 'unavailable';
  constructor() {
    super('webhook endpoints need EVENTS_ENCRYPTION_KEY (32 bytes, base64) in the settings');
  }
}

/** 400: a webhook URL we will not call: not https, or it resolves to an address inside our network. */
export class WebhookUrlRefusedError extends DomainError {
  readonly code = 'webhook_url_refused';
  readonly kind = 'invalid_input';
  constructor(reason: string) {
    super(`url: ${reason}`, { field: 'url' });
  }
}

/** 404: no such endpoint for this merchant; another merchant's endpoint is answered the same as a missing one. */
export class WebhookEndpointNotFoundError extends DomainError {
  readonly code = 'webhook_endpoint_not_found';
  readonly kind = 'not_found';
  constructor(endpointId: string) {
    super(`no webhook endpoint ${endpointId}`, { endpointId });
  }
}

/**
 * 403: an endpoint's secret belongs to the merchant whose receiver verifies with it, so only a merchant token may
 * mint one (create, rotate); an admin who did would break the merchant's receiver with a secret it never saw.
 */
export class WebhookEndpointMerchantRequiredError extends DomainError {
  readonly code = 'webhook_endpoint_merchant_required';
  readonly kind = 'forbidden';
  constructor(what: string) {
    super(`${what} needs a merchant token: the secret is shown once, to the merchant whose receiver verifies with it`);
  }
}

/** 422: every event fans out to each endpoint, so a merchant has a bounded number of them. */
export class WebhookEndpointLimitError extends DomainError {
  readonly code = 'webhook_endpoint_limit_reached';
  readonly kind = 'unprocessable';
  constructor(limit: number) {
    super(`a merchant may have at most ${limit} webhook endpoints; delete one first`, { limit });
  }
}

/** 409: a disabled endpoint is sent nothing, a ping included; enable it first. */
export class WebhookEndpointDisabledError extends DomainError {
  readonly code = 'webhook_endpoint_disabled';
  readonly kind = 'conflict';
  constructor(endpointId: string, reason: string | null) {
    super(`webhook endpoint ${endpointId} is disabled (${reason ?? 'unknown'}); enable it to send a ping`, { endpointId, disabledReason: reason });
  }
}
