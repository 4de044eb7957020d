import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI shapes of what finance's console endpoints answer. */
export class ProviderCallDoc {
  @ApiProperty() attemptId: string;
  @ApiProperty() at: Date;
  @ApiProperty({ enum: ['create', 'lookup'] }) kind: string;
  @ApiProperty() outcome: string;
  @ApiPropertyOptional({ nullable: true }) httpStatus: number | null;
  @ApiProperty() durationMs: number;
  @ApiPropertyOptional({ type: Object, nullable: true }) detail: object | null;
}

export class LookupAttemptDoc {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['charge', 'refund'] }) operation: string;
  @ApiPropertyOptional({ nullable: true, description: 'set on a refund attempt' }) refundId: string | null;
  @ApiProperty() provider: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'unknown'] }) status: string;
  @ApiPropertyOptional({ nullable: true }) providerChargeId: string | null;
  @ApiPropertyOptional({ nullable: true }) lateCaptureProviderChargeId: string | null;
  @ApiProperty() idempotencyKey: string;
  @ApiProperty() httpAttempts: number;
  @ApiPropertyOptional({ type: Object, nullable: true }) lastError: object | null;
  @ApiProperty() createdAt: Date;
  @ApiPropertyOptional({ nullable: true }) unknownSince: Date | null;
  @ApiPropertyOptional({ nullable: true }) resolvedAt: Date | null;
  @ApiPropertyOptional({ nullable: true }) resolvedBy: string | null;
  @ApiProperty({ type: [ProviderCallDoc], description: 'the evidence: every call made to the provider for this attempt' }) providerCalls: ProviderCallDoc[];
}

export class LookupRefundDoc {
  @ApiProperty() id: string;
  @ApiProperty() amountCents: number;
  @ApiProperty() currency: string;
  @ApiPropertyOptional({ nullable: true }) reason: string | null;
  @ApiProperty() createdBy: string;
  @ApiPropertyOptional({ nullable: true, description: 'its attempt finally failed and the amount was given back' }) releasedAt: Date | null;
  @ApiProperty() createdAt: Date;
}

export class LookupReviewItemDoc {
  @ApiProperty() id: string;
  @ApiProperty() attemptId: string;
  @ApiProperty() reason: string;
  @ApiProperty({ enum: ['open', 'claimed', 'awaiting_second', 'closed'] }) state: string;
  @ApiPropertyOptional({ nullable: true }) decision: string | null;
  @ApiPropertyOptional({ nullable: true }) decidedBy: string | null;
  @ApiPropertyOptional({ nullable: true }) confirmedBy: string | null;
  @ApiPropertyOptional({ nullable: true }) followUp: string | null;
  @ApiProperty() openedAt: Date;
  @ApiPropertyOptional({ nullable: true }) closedAt: Date | null;
}

export class LookupEventDeliveryDoc {
  @ApiProperty() endpointId: string;
  @ApiProperty({ description: 'scheme, host and path only (a query string may hold the merchant\'s own token)' }) url: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'abandoned'] }) state: string;
  @ApiProperty() attempts: number;
  @ApiPropertyOptional({ nullable: true }) deliveredAt: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'when it is tried next, while pending' }) nextAttemptAt: string | null;
  @ApiPropertyOptional({ nullable: true }) lastHttpStatus: number | null;
  @ApiPropertyOptional({ nullable: true }) lastError: string | null;
}

export class LookupEventDoc {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'charge.succeeded' }) type: string;
  @ApiProperty({ enum: ['charge', 'refund'] }) objectType: string;
  @ApiProperty() objectId: string;
  @ApiProperty() objectVersion: number;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ type: [LookupEventDeliveryDoc] }) deliveries: LookupEventDeliveryDoc[];
}

export class ChargeLookupHitDoc {
  @ApiProperty() id: string;
  @ApiProperty() merchantId: string;
  @ApiProperty() merchantName: string;
  @ApiProperty() orderId: string;
  @ApiProperty() customerId: string;
  @ApiProperty() amountCents: number;
  @ApiProperty() currency: string;
  @ApiProperty() provider: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ type: [LookupAttemptDoc] }) attempts: LookupAttemptDoc[];
  @ApiProperty({ type: [LookupRefundDoc] }) refunds: LookupRefundDoc[];
  @ApiProperty({ type: [LookupReviewItemDoc] }) reviewItems: LookupReviewItemDoc[];
  @ApiProperty({ type: [LookupEventDoc], description: 'what the merchant was told, in commit order, with each delivery' }) events: LookupEventDoc[];
}

export class ChargeLookupPageDoc {
  @ApiProperty({ type: [ChargeLookupHitDoc], description: 'newest first, at most 50' }) items: ChargeLookupHitDoc[];
  @ApiProperty({ description: 'more charges matched than were returned: narrow the query' }) truncated: boolean;
}

export class CalendarDayDoc {
  @ApiProperty({ example: '2026-12-01' }) day: string;
  @ApiProperty({ enum: ['succeeded', 'failed', 'running', 'missing', 'before_service'], description: 'missing: no run; before_service: no run, and before the service first saw the provider (nothing to reconcile)' }) status: string;
  @ApiPropertyOptional({ nullable: true, description: 'the run shown: a running one, else the latest succeeded, else the latest failed' }) runId: string | null;
  @ApiProperty({ description: 'every run of the day' }) runs: number;
  @ApiPropertyOptional({ nullable: true }) linesRead: number | null;
  @ApiPropertyOptional({ nullable: true }) matched: number | null;
  @ApiPropertyOptional({ nullable: true }) settled: number | null;
  @ApiProperty({ description: 'count by kind', example: { provider_only: 1 } }) divergences: Record<string, number>;
  @ApiPropertyOptional({ nullable: true }) startedAt: Date | null;
  @ApiPropertyOptional({ nullable: true }) finishedAt: Date | null;
  @ApiPropertyOptional({ nullable: true }) durationSeconds: number | null;
  @ApiPropertyOptional({ nullable: true }) error: string | null;
}

export class CalendarDoc {
  @ApiProperty() provider: string;
  @ApiProperty({ type: [String], description: 'every provider with a statement to reconcile' }) providers: string[];
  @ApiProperty({ type: [CalendarDayDoc], description: 'newest first' }) days: CalendarDayDoc[];
}

export class UnknownAgeBucketDoc {
  @ApiProperty({ example: '1–5 min' }) label: string;
  @ApiProperty() fromSeconds: number;
  @ApiPropertyOptional({ nullable: true }) toSeconds: number | null;
  @ApiProperty() count: number;
}

export class UnknownAttemptsTrendDoc {
  @ApiProperty({ type: [UnknownAgeBucketDoc] }) buckets: UnknownAgeBucketDoc[];
}

export class TimeToCertaintyDoc {
  @ApiProperty({ type: [Number], description: 'start of each hour, unix seconds' }) hours: number[];
  @ApiProperty({ description: 'by cause: count, p50, p90, p99 (seconds, null in an hour with none) per hour', example: { resolver: { count: [3], p50: [4.2], p90: [30], p99: [58.1] } } })
  causes: Record<string, { count: number[]; p50: Array<number | null>; p90: Array<number | null>; p99: Array<number | null> }>;
}

export class ReviewQueueTrendDoc {
  @ApiProperty({ type: [Number], description: 'sample instants, unix seconds, one an hour, the last now' }) hours: number[];
  @ApiProperty({ type: [Number] }) open: number[];
  @ApiProperty({ type: [Number], description: 'minutes; null when the queue was empty' }) oldestAgeMinutes: Array<number | null>;
}

export class DivergencesPerNightDoc {
  @ApiProperty({ type: [Number], description: 'each reconciled day, as unix seconds of its UTC midnight' }) days: number[];
  @ApiProperty({ type: [Number] }) divergences: number[];
}
