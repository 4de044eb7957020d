import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, merchantScope, type Actor } from '@app/auth';
import { EventFeedQuery, FEED_PAGE_DEFAULT, FeedMerchantRequiredError, parseEventTypes, type FeedPage, type MerchantEvent } from '@app/events';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { EventFeedPageDoc, EventFeedQueryDto, MerchantEventDoc } from './event-feed.dto.js';

@ApiTags('events')
@ApiBearerAuth()
@Roles('merchant')
@Controller('events')
export class EventsFeedController {
  constructor(private readonly feed: EventFeedQuery) {}

  @Get()
  @ApiOkResponse({ type: EventFeedPageDoc, description: "the merchant's events of the last 30 days in commit order, for receivers that were down or prefer to pull" })
  @ApiErrors({ 400: ['invalid_event_cursor', 'invalid_event_types'], 403: 'event_feed_merchant_required' })
  list(@Query() query: EventFeedQueryDto, @CurrentActor() actor: Actor): Promise<FeedPage> {
    const merchantId = merchantScope(actor);
    if (!merchantId) throw new FeedMerchantRequiredError();
    return this.feed.page(merchantId, { after: query.after, types: parseEventTypes(query.types), limit: query.limit ?? FEED_PAGE_DEFAULT });
  }

  @Get(':id')
  @ApiOkResponse({ type: MerchantEventDoc })
  @ApiErrors({ 404: 'event_not_found' })
  get(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<MerchantEvent> {
    return this.feed.get(id, merchantScope(actor));
  }
}
