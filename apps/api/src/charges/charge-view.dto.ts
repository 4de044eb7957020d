import { ApiProperty } from '@nestjs/swagger';
import { ATTEMPT_STATUSES } from '@app/attempts/rules';
import { CHARGE_STATUSES, type AttemptView, type CaptureView, type ChargeView } from '@app/charges';

/** OpenAPI shape of one attempt in a charge view. */
export class AttemptViewDto implements AttemptView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'sent as Idempotency-Key on every send of this attempt' }) idempotencyKey: string;
  @ApiProperty({ example: 'stripe' }) provider: string;
  @ApiProperty({ enum: ATTEMPT_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, example: 'pi_3Nf...' }) providerChargeId: string | null;
  @ApiProperty() httpAttempts: number;
  @ApiProperty({ type: Object, nullable: true }) lastError: object | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: String, nullable: true }) resolvedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'submit, resolver, webhook, reviewer, sweeper, reconciliation' }) resolvedBy: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'when the provider captured this attempt after we had failed it (its status stays failed)' })
  lateCapturedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the provider charge of that late capture' }) lateCaptureProviderChargeId: string | null;
}

export class CaptureViewDto implements CaptureView {
  @ApiProperty({ description: 'the attempt through which the provider holds the customer\'s money' }) attemptId: string;
  @ApiProperty({ type: String, nullable: true }) providerChargeId: string | null;
  @ApiProperty({ description: 'captured after we had failed the attempt: a late success is still a success' }) late: boolean;
}

export class ChargeReviewItemDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'retries_exhausted' }) reason: string;
  @ApiProperty({ enum: ['open', 'claimed', 'awaiting_second'] }) state: string;
}

export class RefundSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty({ enum: ['processing', 'succeeded', 'failed', 'in_review'] }) status: 'processing' | 'succeeded' | 'failed' | 'in_review';
}

export class ChargeViewDto implements ChargeView {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'uuid', description: 'the merchant it belongs to' }) merchantId: string;
  @ApiProperty() orderId: string;
  @ApiProperty({ description: 'integer minor units', example: 4990 }) amountCents: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ example: 'cus_123' }) customerId: string;
  @ApiProperty({ enum: ['stripe', 'asaas'] }) provider: string;
  @ApiProperty({ enum: CHARGE_STATUSES, description: 'what the provider holds: succeeded (and the refund states) whenever any attempt captured' })
  status: ChargeView['status'];
  @ApiProperty({ type: CaptureViewDto, nullable: true, description: 'the attempt that captured, late or not' }) capturedBy: CaptureViewDto | null;
  @ApiProperty({ description: 'refunded at the provider, as its events reported it' }) refundedCents: number;
  @ApiProperty() disputed: boolean;
  @ApiProperty({ type: String, nullable: true }) disputeStatus: string | null;
  @ApiProperty({ type: [AttemptViewDto] }) attempts: AttemptViewDto[];
  @ApiProperty({ type: [ChargeReviewItemDto], description: 'review items still waiting for a person' }) reviewItems: ChargeReviewItemDto[];
  @ApiProperty({ type: [RefundSummaryDto] }) refunds: RefundSummaryDto[];
}
