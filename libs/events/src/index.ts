export { EVENT_TYPES, PING_EVENT_TYPE, type EventType, type MerchantEvent } from './event-types.js';
export { EndpointSecretCipher } from './endpoint-secret.cipher.js';
export { EventsKeyMissingError, WebhookUrlRefusedError } from './events.errors.js';
export { newWebhookSecret } from './webhook-secret.js';
export { checkWebhookUrl, isInternalAddress, type HostResolver } from './webhook-url.guard.js';
