import { ApiProperty } from '@nestjs/swagger';
import type { DeliveryTryView, EventDeliveryView } from '@app/events';

export class DeliveryTryDto implements DeliveryTryView {
  @ApiProperty() attempt: number;
  @ApiProperty() startedAt: string;
  @ApiProperty() durationMs: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null: no answer (timeout, reset, refused, or the URL now resolves inside our network)' }) httpStatus: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the first 1 KiB of the answer' }) responseExcerpt: string | null;
}

export class EventDeliveryDto implements EventDeliveryView {
  @ApiProperty() endpointId: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'abandoned'] }) state: 'pending' | 'delivered' | 'abandoned';
  @ApiProperty({ description: 'tries so far' }) attempts: number;
  @ApiProperty({ type: String, nullable: true, description: 'while pending: when it is tried next' }) nextAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true }) deliveredAt: string | null;
  @ApiProperty({ type: [DeliveryTryDto] }) tries: DeliveryTryDto[];
}

export class RedeliveryDto {
  @ApiProperty() eventId: string;
  @ApiProperty({ description: 'deliveries queued again (one per endpoint that had the event)' }) deliveries: number;
}
