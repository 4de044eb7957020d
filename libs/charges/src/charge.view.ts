import type { ChargeReviewItem } from '@app/attempts';
import type { ChargeAttemptEntity, ChargeEntity } from '@app/database';
import type { RefundSummary } from '@app/refunds';
import { deriveChargeStatus, type ChargeStatus } from './rules/charge-status.js';

export interface AttemptView {
  id: string;
  idempotencyKey: string;
  provider: string;
  status: string;
  providerChargeId: string | null;
  httpAttempts: number;
  lastError: object | null;
  createdAt: string;
  resolvedAt: string | null;
  /** What settled it: submit (the response), resolver (a query), webhook, reviewer, sweeper. */
  resolvedBy: string | null;
}

export interface ChargeView {
  id: string;
  orderId: string;
  amountCents: number;
  currency: string;
  customerId: string;
  provider: string;
  status: ChargeStatus;
  /** Refunded at the provider, as its events reported it. */
  refundedCents: number;
  /** True once the provider reported a dispute; `disputeStatus` says where it stands. */
  disputed: boolean;
  disputeStatus: string | null;
  attempts: AttemptView[];
  /** Review items still waiting for a person, whatever the status (a succeeded charge may have a duplicate under review). */
  reviewItems: ChargeReviewItem[];
  /** Our refunds of this charge (`refundedCents` stays what the provider reported). */
  refunds: RefundSummary[];
}

export function toChargeView(
  charge: ChargeEntity,
  attempts: ChargeAttemptEntity[],
  hasOpenReviewItem: boolean,
  reviewItems: ChargeReviewItem[] = [],
  refunds: RefundSummary[] = [],
): ChargeView {
  return {
    id: charge.id,
    orderId: charge.orderId,
    amountCents: charge.amountCents,
    currency: charge.currency,
    customerId: charge.customerId,
    provider: charge.provider,
    status: deriveChargeStatus(attempts, hasOpenReviewItem),
    refundedCents: charge.refundedCents ?? 0,
    disputed: charge.disputeStatus !== null && charge.disputeStatus !== undefined,
    disputeStatus: charge.disputeStatus ?? null,
    attempts: attempts.map((a) => ({
      id: a.id,
      idempotencyKey: a.idempotencyKey,
      provider: a.provider,
      status: a.status,
      providerChargeId: a.providerChargeId,
      httpAttempts: a.httpAttempts,
      lastError: a.lastError,
      createdAt: a.createdAt.toISOString(),
      resolvedAt: a.resolvedAt ? a.resolvedAt.toISOString() : null,
      resolvedBy: a.resolvedBy,
    })),
    reviewItems,
    refunds,
  };
}
