export { EVENT_TYPES, PING_EVENT_TYPE, type EventType, type MerchantEvent } from './event-types.js';
export { EndpointSecretCipher } from './endpoint-secret.cipher.js';
export { EventsKeyMissingError, WebhookUrlRefusedError } from './events.errors.js';
export { newWebhookSecret } from './webhook-secret.js';
export { checkWebhookUrl, isInternalAddress, type HostResolver } from './webhook-url.guard.js';
export { EventFeedModule } from './event-feed.module.js';
export { EventFeedQuery, FEED_PAGE_DEFAULT, FEED_PAGE_MAX, FEED_WINDOW_DAYS, type FeedPage } from './feed/event-feed.query.js';
export { parseEventTypes } from './feed/event-types.filter.js';
export { EventNotFoundError, FeedMerchantRequiredError, InvalidEventTypesError, InvalidFeedCursorError } from './feed/feed.errors.js';
