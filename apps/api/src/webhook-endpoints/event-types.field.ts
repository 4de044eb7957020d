import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES } from '@app/events';

/** `events` of a create or a PATCH: a non-empty list of known event types, or null (every type, new ones included). */
export function EventTypesField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      enum: EVENT_TYPES,
      nullable: true,
      description: 'the event types sent to this endpoint; null or absent: every type (a ping is always sent)',
      example: ['charge.succeeded', 'charge.failed'],
    }),
    IsOptional(),
    IsArray({ message: 'events must be an array of event types, or null for every type' }),
    ArrayMinSize(1, { message: 'events must name at least one event type, or be null for every type' }),
    ArrayMaxSize(EVENT_TYPES.length, { message: `events must name at most ${EVENT_TYPES.length} event types` }),
    ArrayUnique({ message: 'events must not name an event type twice' }),
    IsIn(EVENT_TYPES, { each: true, message: `events must each be one of ${EVENT_TYPES.join(', ')}` }),
  );
}
