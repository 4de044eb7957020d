import type { ChargeReviewItem } from '@app/review/items';
import type { EntityManager } from 'typeorm';
import type { AttemptEntity, ChargeEntity } from '@app/database';
import { capturingAttempt, deriveChargeStatus, type ChargeStatus } from './rules/charge-status.js';

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
  /** When the provider captured this attempt after we had failed it (its status stays `failed`); null otherwise. */
  lateCapturedAt: string | null;
  /** The provider charge of that late capture. */
  lateCaptureProviderChargeId: string | null;
}

/** The attempt through which the provider holds the customer's money, and that money's provider charge. */
export interface CaptureView {
  attemptId: string;
  providerChargeId: string | null;
  /** True when the provider captured it after we had failed the attempt (a late success is still a success). */
  late: boolean;
}

/** One of our refunds of the charge, as the charge view shows it (the refunds library derives its status). */
export interface ChargeRefundSummary {
  id: string;
  amountCents: number;
  status: 'processing' | 'in_review' | 'succeeded' | 'failed';
}

/**
 * Reads a charge's refunds inside the view's snapshot. Charges do not know refunds: the api, where the two views
 * meet, hands the refunds library's reader in.
 */
export type ChargeRefundsReader = (em: EntityManager, chargeId: string) => Promise<ChargeRefundSummary[]>;

export interface ChargeView {
  id: string;
  /** The merchant it belongs to (a merchant only ever sees its own). */
  merchantId: string;
  orderId: string;
  amountCents: number;
  currency: string;
  customerId: string;
  provider: string;
  status: ChargeStatus;
  /** Set whenever an attempt captured: which one, even when its own status is `failed` (a late capture). */
  capturedBy: CaptureView | null;
  /** Refunded at the provider, as its events reported it. */
  refundedCents: number;
  /** True once the provider reported a dispute; `disputeStatus` says where it stands. */
  disputed: boolean;
  disputeStatus: string | null;
  attempts: AttemptView[];
  /** Review items still waiting for a person, whatever the status (a succeeded charge may have a duplicate under review). */
  reviewItems: ChargeReviewItem[];
  /** Our refunds of this charge (`refundedCents` stays what the provider reported). */
  refunds: ChargeRefundSummary[];
}

export function toChargeView(
  charge: ChargeEntity,
  attempts: AttemptEntity[],
  hasOpenReviewItem: boolean,
  reviewItems: ChargeReviewItem[] = [],
  refunds: ChargeRefundSummary[] = [],
): ChargeView {
  return {
    id: charge.id,
    merchantId: charge.merchantId,
    orderId: charge.orderId,
    amountCents: charge.amountCents,
    currency: charge.currency,
    customerId: charge.customerId,
    provider: charge.provider,
    status: deriveChargeStatus(attempts, hasOpenReviewItem, refunds, charge.amountCents),
    capturedBy: captureOf(attempts),
    refundedCents: charge.refundedCents ?? 0,
    disputed: charge.disputeStatus !== null && charge.disputeStatus !== undefined,
    disputeStatus: charge.disputeStatus ?? null,
    attempts: attempts.map((a) => ({
      id: a.id,
      idempotencyKey: a.idempotencyKey,
      provider: a.provider,
      status: a.status,
      providerChargeId: a.providerRef,
      httpAttempts: a.httpAttempts,
      lastError: a.lastError,
      createdAt: a.createdAt.toISOString(),
      resolvedAt: a.resolvedAt ? a.resolvedAt.toISOString() : null,
      resolvedBy: a.resolvedBy,
      lateCapturedAt: a.lateCapturedAt ? a.lateCapturedAt.toISOString() : null,
      lateCaptureProviderChargeId: a.lateCaptureProviderChargeId ?? null,
    })),
    reviewItems,
    refunds,
  };
}

function captureOf(attempts: AttemptEntity[]): CaptureView | null {
  const captured = capturingAttempt(attempts);
  if (!captured) return null;
  const late = captured.status !== 'succeeded';
  return { attemptId: captured.id, providerChargeId: late ? captured.lateCaptureProviderChargeId : captured.providerRef, late };
}
