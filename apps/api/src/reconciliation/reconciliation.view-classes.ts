import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DIVERGENCE_KINDS } from '@app/reconciliation';

/** OpenAPI shapes of what the reconciliation endpoints answer. */
export class RunAcceptedView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['running'] }) status: 'running';
}

export class RunViewDoc {
  @ApiProperty() id: string;
  @ApiProperty() provider: string;
  @ApiProperty({ example: '2026-12-01' }) date: string;
  @ApiProperty({ enum: ['api', 'report'] }) source: string;
  @ApiProperty({ enum: ['scheduled', 'manual'] }) trigger: string;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed', 'waiting'], description: 'waiting: the provider has not made the day available yet; the next tick asks again' }) status: string;
  @ApiProperty() linesRead: number;
  @ApiProperty() matched: number;
  @ApiProperty() settled: number;
  @ApiProperty({ description: 'count by kind', example: { provider_only: 1, duplicate_charge: 0 } }) divergences: Record<string, number>;
  @ApiProperty({ description: 'how many executors claimed it (more than 1: taken over)' }) executions: number;
  @ApiProperty() startedAt: Date;
  @ApiPropertyOptional({ nullable: true }) finishedAt: Date | null;
  @ApiPropertyOptional({ nullable: true }) error: string | null;
}

export class OpenDayDoc {
  @ApiProperty({ example: '2026-12-01' }) day: string;
  @ApiProperty({ enum: ['not_tried', 'failed', 'waiting', 'running'], description: 'the latest run of the day' }) status: string;
  @ApiPropertyOptional({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ description: 'scheduled runs of the day that failed: the next try waits RECONCILIATION_RETRY_BACKOFF_MS' }) failedRuns: number;
}

export class OpenDaysDoc {
  @ApiProperty() provider: string;
  @ApiProperty({ description: 'every day of the catch-up window before this instant has a succeeded run' }) reconciledThrough: Date;
  @ApiProperty({ type: [OpenDayDoc], description: 'days of the catch-up window (ending yesterday) with no succeeded run, oldest first' }) days: OpenDayDoc[];
}

export class DivergenceViewDoc {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'the run that first found it' }) runId: string;
  @ApiProperty({ enum: DIVERGENCE_KINDS }) kind: string;
  @ApiProperty() provider: string;
  @ApiProperty() day: string;
  @ApiPropertyOptional({ nullable: true }) providerChargeId: string | null;
  @ApiPropertyOptional({ nullable: true }) chargeId: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'the payout, when the line is a Pix transfer (payout gateways)' }) payoutId: string | null;
  @ApiPropertyOptional({ nullable: true }) attemptId: string | null;
  @ApiProperty() amountCents: number;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: ['open', 'acknowledged'] }) status: string;
  @ApiProperty({ type: Object }) detail: object;
  @ApiPropertyOptional({ nullable: true }) note: string | null;
  @ApiPropertyOptional({ nullable: true }) acknowledgedBy: string | null;
  @ApiPropertyOptional({ nullable: true }) acknowledgedAt: Date | null;
}

export class DivergencePageDoc {
  @ApiProperty({ type: [DivergenceViewDoc] }) items: DivergenceViewDoc[];
  @ApiPropertyOptional({ nullable: true }) nextCursor: string | null;
}

export class RefundProposalViewDoc {
  @ApiProperty() id: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the divergence it comes from; null when a reviewer proposed it' }) divergenceId: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the review item acknowledged with refund_needed that proposed it' }) reviewItemId: string | null;
  @ApiProperty() provider: string;
  @ApiProperty() providerChargeId: string;
  @ApiPropertyOptional({ nullable: true }) chargeId: string | null;
  @ApiProperty() amountCents: number;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: ['provider_only', 'duplicate_charge', 'review'] }) reason: string;
  @ApiProperty({ enum: ['proposed', 'awaiting_second', 'rejected', 'executed'] }) state: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the first admin of a large proposal; another one executes it' }) approvedBy: string | null;
  @ApiPropertyOptional({ nullable: true }) decidedBy: string | null;
  @ApiPropertyOptional({ nullable: true }) decidedAt: Date | null;
  @ApiPropertyOptional({ nullable: true }) decisionNote: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'the refund that executed it (GET /refunds/:id)' }) refundId: string | null;
  @ApiProperty() createdAt: Date;
}
