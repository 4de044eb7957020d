import { Module } from '@nestjs/common';
import { EventFeedQuery } from './feed/event-feed.query.js';
import { EventNotificationListener } from './wait/event-notification.listener.js';
import { ObjectWaiters } from './wait/object-waiters.registry.js';
import { UntilFinal } from './wait/until-final.wait.js';

/** What the api reads of events: the merchant's feed, and the long polls their commits wake. */
@Module({
  providers: [EventFeedQuery, ObjectWaiters, EventNotificationListener, UntilFinal],
  exports: [EventFeedQuery, UntilFinal, ObjectWaiters],
})
export class EventFeedModule {}
