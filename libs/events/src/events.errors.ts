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
