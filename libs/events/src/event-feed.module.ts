import { Module } from '@nestjs/common';
import { EventFeedQuery } from './feed/event-feed.query.js';

/** What the api reads of events: the merchant's feed. */
@Module({
  providers: [EventFeedQuery],
  exports: [EventFeedQuery],
})
export class EventFeedModule {}
