import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import type { EventType } from '@app/events';
import { EventTypesField } from './event-types.field.js';

/** Absent fields are left as they are; `events: null` means every type again, `description: null` clears it. */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: 'a new URL, checked as at creation', example: 'https://shop.example.com/webhooks/v2' })
  // Present means a URL: null is not a way to have none.
  @ValidateIf((_, value) => value !== undefined) @IsString() @Length(1, 2048)
  url?: string;

  @EventTypesField()
  events?: EventType[] | null;

  @ApiPropertyOptional({ description: 'false stops deliveries (disabledReason merchant); true starts them again and clears disabledReason and failingSince' })
  @ValidateIf((_, value) => value !== undefined) @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'order fulfilment' })
  @IsOptional() @IsString() @Length(1, 500)
  description?: string | null;
}
