import { ApiProperty } from '@nestjs/swagger';
import { CHARGE_STATUSES, type ChargeStatus, type ChargeSummary } from '@app/charges';
import type { PayoutStatus, PayoutSummary } from '@app/payouts';
import type { RefundStatus, RefundSummaryLine } from '@app/refunds';
import { AccountViewDoc } from '../accounts/account.views.js';

const MONEY_OUT_STATUSES = ['processing', 'in_review', 'succeeded', 'failed'];
const CURSOR = { type: String, nullable: true, description: 'pass it as `cursor` for the next, older page; null on the last page', example: 'bDE6MTc2NTA4MDAwMDAwMDAwMDpiMWU1Li4u' };

export class ChargeSummaryDto implements ChargeSummary {
  @ApiProperty({ format: 'uuid', example: '3f0c2b8e-5d1a-5e39-9a57-6f1d2c4b8a10' }) id: string;
  @ApiProperty({ example: 'order-1042' }) orderId: string;
  @ApiProperty({ description: 'integer minor units', example: 12_990 }) amountCents: number;
  @ApiProperty({ example: 'brl' }) currency: string;
  @ApiProperty({ example: 'cus_829' }) customerId: string;
  @ApiProperty({ example: 'stripe' }) provider: string;
  @ApiProperty({ enum: CHARGE_STATUSES, example: 'succeeded' }) status: ChargeStatus;
  @ApiProperty({ description: 'integer minor units the provider reported refunded', example: 0 }) refundedCents: number;
  @ApiProperty({ example: '2026-12-07T14:03:11.482Z' }) createdAt: string;
}

export class ChargeListDto {
  @ApiProperty({ type: [ChargeSummaryDto], description: 'newest first; GET /charges/:id has the attempts' }) items: ChargeSummaryDto[];
  @ApiProperty(CURSOR) nextCursor: string | null;
}

export class RefundSummaryDto implements RefundSummaryLine {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) chargeId: string;
  @ApiProperty({ description: 'integer minor units', example: 400 }) amountCents: number;
  @ApiProperty({ example: 'brl' }) currency: string;
  @ApiProperty({ enum: MONEY_OUT_STATUSES, example: 'processing' }) status: RefundStatus;
  @ApiProperty({ type: String, nullable: true, example: 'requested_by_customer' }) reason: string | null;
  @ApiProperty({ example: '2026-12-07T14:05:00.000Z' }) createdAt: string;
}

export class RefundListDto {
  @ApiProperty({ type: [RefundSummaryDto], description: 'newest first; GET /refunds/:id has the attempts' }) items: RefundSummaryDto[];
  @ApiProperty(CURSOR) nextCursor: string | null;
}

export class PayoutSummaryDto implements PayoutSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({ description: 'integer minor units', example: 5_000 }) amountCents: number;
  @ApiProperty({ example: 'brl' }) currency: string;
  @ApiProperty({ example: 'cpf' }) pixKeyType: string;
  @ApiProperty({ type: String, nullable: true, example: 'supplier invoice 77' }) description: string | null;
  @ApiProperty({ enum: MONEY_OUT_STATUSES, example: 'succeeded' }) status: PayoutStatus;
  @ApiProperty({ example: '2026-12-07T15:00:00.000Z' }) createdAt: string;
}

export class PayoutListDto {
  @ApiProperty({ type: [PayoutSummaryDto], description: 'newest first; GET /payouts/:id has the attempts and returns' }) items: PayoutSummaryDto[];
  @ApiProperty(CURSOR) nextCursor: string | null;
}

export class AccountListDto {
  @ApiProperty({ type: [AccountViewDoc], description: 'newest first' }) items: AccountViewDoc[];
  @ApiProperty(CURSOR) nextCursor: string | null;
}
