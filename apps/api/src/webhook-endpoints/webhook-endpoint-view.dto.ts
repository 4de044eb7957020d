import { ApiProperty } from '@nestjs/swagger';
import { DISABLED_REASONS, EVENT_TYPES, PING_EVENT_TYPE, type DisabledReason, type EventType, type PingSent, type WebhookEndpointView, type WebhookEndpointWithSecret } from '@app/events';

export class WebhookEndpointViewDto implements WebhookEndpointView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['webhook_endpoint'] }) object: 'webhook_endpoint';
  @ApiProperty() merchantId: string;
  @ApiProperty({ example: 'https://shop.example.com/webhooks/charge-once' }) url: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: [String], enum: EVENT_TYPES, nullable: true, description: 'null: every event type' }) events: EventType[] | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ enum: DISABLED_REASONS, nullable: true, description: 'merchant: PATCH enabled=false; gone: the receiver answered 410; failing: deliveries failed for 3 days' })
  disabledReason: DisabledReason | null;
  @ApiProperty({ type: String, nullable: true, description: 'since when every delivery to it has failed' }) failingSince: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'after a rotation: until when deliveries are also signed with the previous secret' })
  secretRotatedUntil: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointViewDto implements WebhookEndpointWithSecret {
  @ApiProperty({ description: 'the signing secret (Standard Webhooks `whsec_…`): shown this once, never again', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;
}

export class PingSentDto implements PingSent {
  @ApiProperty({ description: 'the ping event, delivered to this endpoint only' }) eventId: string;
  @ApiProperty() endpointId: string;
  @ApiProperty({ enum: [PING_EVENT_TYPE] }) type: typeof PING_EVENT_TYPE;
}
