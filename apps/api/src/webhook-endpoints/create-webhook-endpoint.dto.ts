import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import type { EventType } from '@app/events';
import { EventTypesField } from './event-types.field.js';

export class CreateWebhookEndpointDto {
  @ApiProperty({
    description: 'where events are POSTed: https to a public address (checked now and before every delivery); plain http and private addresses only where WEBHOOK_ALLOW_PRIVATE_URLS=true',
    example: 'https://shop.example.com/webhooks/charge-once',
  })
  @IsString() @Length(1, 2048)
  url: string;

  @EventTypesField()
  events?: EventType[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'for the merchant: what this endpoint is for', example: 'order fulfilment' })
  @IsOptional() @IsString() @Length(1, 500)
  description?: string | null;
}
