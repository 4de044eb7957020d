import { DomainError } from '@app/common';

/** 400: `after` is not a nextCursor this API returned. */
export class InvalidFeedCursorError extends DomainError {
  readonly code = 'invalid_event_cursor';
  readonly kind = 'invalid_input';
  constructor() {
    super('after: must be the nextCursor of a previous page of GET /events', { field: 'after' });
  }
}

/** 400: `types` names something that is not a merchant event type. */
export class InvalidEventTypesError extends DomainError {
  readonly code = 'invalid_event_types';
  readonly kind = 'invalid_input';
  constructor(unknown: string[], known: readonly string[]) {
    super(`types: ${unknown.map((t) => JSON.stringify(t)).join(', ')} is not an event type; one of ${known.join(', ')}, comma separated`, { field: 'types', unknown });
  }
}

/** 404: no such event, or another merchant's (the SQL is scoped, so the two look the same). */
export class EventNotFoundError extends DomainError {
  readonly code = 'event_not_found';
  readonly kind = 'not_found';
  constructor(id: string) {
    super(`event ${id} not found`, { eventId: id });
  }
}

/** 403: the feed is one merchant's; a reviewer's or admin's token has none. */
export class FeedMerchantRequiredError extends DomainError {
  readonly code = 'event_feed_merchant_required';
  readonly kind = 'forbidden';
  constructor() {
    super('the event feed is a merchant\'s own: call it with a merchant token');
  }
}
