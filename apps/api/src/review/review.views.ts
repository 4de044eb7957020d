import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ATTEMPT_STATUSES } from '@app/attempts/rules';
import { REVIEW_FOLLOW_UPS } from '@app/database';

/** OpenAPI shapes of the review endpoints' answers (the services return plain objects of these shapes). */
export class ReviewDecisionViewDoc {
  @ApiProperty({ enum: ['succeeded', 'failed', 'acknowledge'] }) action: string;
  @ApiPropertyOptional({ type: String, nullable: true }) reason: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) providerChargeId: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, enum: REVIEW_FOLLOW_UPS }) followUp: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) decidedBy: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) decidedAt: string | null;
}

export class ReviewItemViewDoc {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'tries_exhausted' }) reason: string;
  @ApiProperty({ enum: ['open', 'claimed', 'awaiting_second', 'closed'] }) state: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for a reconciliation_gap item: it is about a provider\'s day' }) attemptId: string | null;
  @ApiProperty({ type: String, enum: ATTEMPT_STATUSES, nullable: true }) attemptStatus: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-12-01', description: 'reconciliation_gap: the day that left the catch-up window with no succeeded run' }) day: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the provider charge that captured this attempt after we had failed it: acknowledge with keep_capture or refund_capture' })
  lateCaptureProviderChargeId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'whose money: the charge\'s merchant or the payout account\'s' }) merchantId: string | null;
  @ApiProperty({ type: String, nullable: true }) merchantName: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for the refund of an executed refund proposal (no charge of ours)' }) chargeId: string | null;
  @ApiProperty() provider: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null for a reconciliation_gap item' }) amountCents: number | null;
  @ApiProperty({ type: String, nullable: true }) currency: string | null;
  @ApiProperty({ type: String, nullable: true }) customerId: string | null;
  @ApiProperty({ format: 'date-time' }) openedAt: string;
  @ApiPropertyOptional({ type: String, nullable: true }) claimedBy: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) claimExpiresAt: string | null;
  @ApiProperty({ description: 'a succeeded/failed decision needs a second reviewer' }) fourEyes: boolean;
  @ApiPropertyOptional({ type: ReviewDecisionViewDoc, nullable: true }) decision: ReviewDecisionViewDoc | null;
  @ApiPropertyOptional({ type: String, nullable: true }) confirmedBy: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) confirmedAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) closedAt: string | null;
}

export class ReviewQueuePageDoc {
  @ApiProperty({ type: [ReviewItemViewDoc] }) items: ReviewItemViewDoc[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor: string | null;
}

export class ReviewEvidenceDoc {
  @ApiProperty({ type: 'object', additionalProperties: true }) charge: Record<string, unknown>;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'every attempt of the charge, with the exact payload it sent' }) attempts: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'every provider call: kind, outcome, HTTP status, duration, time' }) providerCalls: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) transitions: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) webhookEvents: object[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'reconciliation_gap only: every run of the day, oldest first' }) runs?: object[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'what was known when the item was opened' }) snapshot: unknown;
}

export class ReviewItemDetailDoc extends ReviewItemViewDoc {
  @ApiProperty({ type: ReviewEvidenceDoc }) evidence: ReviewEvidenceDoc;
}

export class ReviewAuditRowDoc {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty() actor: string;
  @ApiProperty({ enum: ['claim', 'release', 'decide', 'confirm', 'reject', 'escalate'] }) action: string;
  @ApiPropertyOptional({ type: String, nullable: true }) decision: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) reason: string | null;
  @ApiProperty() stateBefore: string;
  @ApiProperty() stateAfter: string;
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true, description: 'the provider evidence used' }) evidence: unknown;
}

export class ReviewerDoc {
  @ApiProperty({ example: 'alice' }) name: string;
  @ApiProperty({ enum: ['reviewer', 'admin'] }) role: string;
}
