import type { AttemptEntity, RefundEntity } from '@app/database';
import { deriveRefundStatus, type RefundStatus } from './rules/refund-status.js';

export interface RefundAttemptView {
  id: string;
  idempotencyKey: string;
  provider: string;
  status: string;
  /** The provider's refund id (Stripe `re_...`) once known. */
  providerRefundId: string | null;
  httpAttempts: number;
  lastError: object | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
  /** The provider refunded this attempt after we had failed it: when we learnt it, its refund and its amount. */
  lateRefundedAt: string | null;
  lateProviderRefundId: string | null;
  lateRefundedCents: number | null;
}

export interface RefundView {
  id: string;
  /** Null for the refund of a provider charge that is none of ours (an executed refund proposal). */
  chargeId: string | null;
  /** The refunded provider charge, for the refund of a proposal. */
  providerChargeId: string | null;
  proposalId: string | null;
  amountCents: number;
  currency: string;
  reason: string | null;
  status: RefundStatus;
  createdAt: string;
  attempts: RefundAttemptView[];
}

export function toRefundView(refund: RefundEntity, attempts: AttemptEntity[], hasOpenReviewItem: boolean): RefundView {
  return {
    id: refund.id,
    chargeId: refund.chargeId,
    providerChargeId: refund.providerChargeId,
    proposalId: refund.proposalId,
    amountCents: refund.amountCents,
    currency: refund.currency,
    reason: refund.reason,
    status: deriveRefundStatus(attempts.map((a) => ({ status: a.status, lateRefundedAt: a.lateRefundedAt, lateRefundAmountCents: a.lateRefundAmountCents })), hasOpenReviewItem, refund.amountCents),
    createdAt: refund.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      id: a.id,
      idempotencyKey: a.idempotencyKey,
      provider: a.provider,
      status: a.status,
      providerRefundId: a.providerRef,
      httpAttempts: a.httpAttempts,
      lastError: a.lastError,
      createdAt: a.createdAt.toISOString(),
      resolvedAt: a.resolvedAt ? a.resolvedAt.toISOString() : null,
      resolvedBy: a.resolvedBy,
      lateRefundedAt: a.lateRefundedAt ? a.lateRefundedAt.toISOString() : null,
      lateProviderRefundId: a.lateRefundProviderRef ?? null,
      lateRefundedCents: a.lateRefundAmountCents ?? null,
    })),
  };
}
