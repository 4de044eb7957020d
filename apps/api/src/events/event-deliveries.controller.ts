import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import { EventDeliveries, type EventDeliveryView } from '@app/events';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { EventDeliveryDto, RedeliveryDto } from './event-delivery.dto.js';

/** What happened to an event on its way to the merchant's endpoints, and sending it again. */
@ApiTags('events')
@ApiBearerAuth()
@Roles('merchant')
@Controller('events')
export class EventDeliveriesController {
  constructor(private readonly deliveries: EventDeliveries) {}

  @Get(':id/deliveries')
  @ApiOkResponse({ type: [EventDeliveryDto], description: 'one per endpoint that wanted the event, each with every try' })
  @ApiErrors({ 404: 'event_not_found' })
  list(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<EventDeliveryView[]> {
    return this.deliveries.of(actor, id);
  }

  @Post(':id/redeliver')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: RedeliveryDto, description: 'sent again to every endpoint that had it, under the same webhook-id' })
  @ApiErrors({ 404: 'event_not_found' })
  redeliver(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<RedeliveryDto> {
    return this.deliveries.redeliver(actor, id);
  }
}
