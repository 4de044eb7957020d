import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module.js';
import { EventDeliverer } from './event-deliverer.service.js';

/** The worker's side of merchant events: it delivers them. The api only writes and lists them. */
@Module({ imports: [EventsModule], providers: [EventDeliverer] })
export class EventDeliveryModule {}
