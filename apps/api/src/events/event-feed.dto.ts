import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { EVENT_TYPES, FEED_PAGE_DEFAULT, FEED_PAGE_MAX } from '@app/events';

export class EventFeedQueryDto {
  @ApiPropertyOptional({ description: 'the nextCursor of the previous page; absent: from the start of the 30-day window' })
  @IsOptional() @IsString() @Length(1, 200, { message: 'after must be the nextCursor of a previous page' })
  after?: string;

  @ApiPropertyOptional({ description: `only these types, comma separated: ${EVENT_TYPES.join(', ')}`, example: 'charge.succeeded,charge.failed' })
  @IsOptional() @IsString() @Length(1, 1000, { message: 'types must be event types, comma separated' })
  types?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: FEED_PAGE_MAX, default: FEED_PAGE_DEFAULT })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'limit must be an integer' }) @Min(1) @Max(FEED_PAGE_MAX)
  limit?: number;
}

/** Swagger shapes of the feed (the query returns plain objects of the same shape). */
export class MerchantEventObjectDoc {
  @ApiProperty({ description: 'the public view of the charge, refund, payout or account at that moment, with its status', type: 'object', additionalProperties: true })
  object: Record<string, unknown>;
}

export class MerchantEventDoc {
  @ApiProperty({ format: 'uuid', description: 'the same id on every delivery of this event (webhook-id)' }) id: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ description: 'increases by one per object: drop an event older than one you already applied' }) objectVersion: number;
  @ApiProperty({ type: MerchantEventObjectDoc }) data: MerchantEventObjectDoc;
}

export class EventFeedPageDoc {
  @ApiProperty({ type: [MerchantEventDoc], description: 'in commit order; an event committed later never lands before a cursor already given' }) data: MerchantEventDoc[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `after` for the next page (the same one again while nothing new committed)' }) nextCursor: string | null;
  @ApiProperty({ description: 'true when another page is ready now' }) hasMore: boolean;
}
