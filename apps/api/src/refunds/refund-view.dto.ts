import { ApiProperty } from '@nestjs/swagger';
import { ATTEMPT_STATUSES } from '@app/attempts/rules';
import type { RefundAttemptView, RefundStatus, RefundView } from '@app/refunds';

/** OpenAPI shape of a refund attempt (the same attempt model as a charge's). */
export class RefundAttemptViewDto implements RefundAttemptView {
  @ApiProperty() id: string;
  @ApiProperty() idempotencyKey: string;
  @ApiProperty({ example: 'stripe' }) provider: string;
  @ApiProperty({ enum: ATTEMPT_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, example: 're_3Nf...' }) providerRefundId: string | null;
  @ApiProperty() httpAttempts: number;
  @ApiProperty({ type: Object, nullable: true }) lastError: object | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: String, nullable: true }) resolvedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'submit, resolver, webhook, reviewer, sweeper' }) resolvedBy: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the provider refunded this attempt after we had failed it (the refund reads succeeded)' })
  lateRefundedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the provider refund of that late success' }) lateProviderRefundId: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'what the provider says that late refund refunded' }) lateRefundedCents: number | null;
}

export class RefundViewDto implements RefundView {
  @ApiProperty() id: string;
  @ApiProperty({ type: String, nullable: true, description: 'null for the refund of a provider charge that is none of ours (an executed refund proposal)' }) chargeId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the refunded provider charge, for the refund of a proposal' }) providerChargeId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the refund proposal this refund executes' }) proposalId: string | null;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty({ enum: ['processing', 'succeeded', 'failed', 'in_review'] }) status: RefundStatus;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: [RefundAttemptViewDto] }) attempts: RefundAttemptViewDto[];
}
