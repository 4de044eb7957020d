import type { AttemptStatus } from '@app/attempts/rules';

export const CHARGE_STATUSES = ['created', 'processing', 'in_review', 'succeeded', 'refund_pending', 'partially_refunded', 'refunded', 'failed'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

interface StatusAttempt {
  status: AttemptStatus;
  /** The provider captured it after we had failed it: a late success is still a success. */
  lateCapturedAt?: Date | null;
}

interface StatusRefund {
  amountCents: number;
  status: 'processing' | 'in_review' | 'succeeded' | 'failed';
}

/** The attempt through which the provider holds the customer's money: a success, or a late capture of a failure. */
export function capturingAttempt<A extends StatusAttempt>(attempts: readonly A[]): A | undefined {
  return attempts.find((a) => a.status === 'succeeded') ?? attempts.find((a) => a.lateCapturedAt);
}

/**
 * What a client sees, derived from the attempts and refunds (never stored, so it cannot drift from them). It says
 * what the provider holds: a capture anywhere wins (whatever a person acknowledged or is still deciding), then
 * what our refunds did with it; a person deciding comes next, then an open attempt, then the last failure.
 */
export function deriveChargeStatus(attempts: readonly StatusAttempt[], hasOpenReviewItem: boolean, refunds: readonly StatusRefund[] = [], amountCents = 0): ChargeStatus {
  if (attempts.length === 0) return 'created';
  if (capturingAttempt(attempts)) {
    if (refunds.some((r) => r.status === 'processing' || r.status === 'in_review')) return 'refund_pending';
    const refunded = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amountCents, 0);
    if (refunded === 0) return 'succeeded';
    return refunded >= amountCents ? 'refunded' : 'partially_refunded';
  }
  // A person is deciding: an unknown attempt, or a provider fact we cannot explain.
  if (hasOpenReviewItem) return 'in_review';
  const open = attempts.find((a) => a.status === 'pending' || a.status === 'unknown');
  return open ? 'processing' : 'failed';
}
