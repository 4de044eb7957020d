import type { AttemptStatus } from '@app/attempts';

export type RefundStatus = 'processing' | 'succeeded' | 'failed' | 'in_review';

export interface RefundStatusAttempt {
  status: AttemptStatus;
  lateRefundedAt?: Date | null;
  /** What the provider says it refunded late (ours when it named none). */
  lateRefundAmountCents?: number | null;
}

/**
 * What a client sees of a refund, derived from its attempts (never stored, so it cannot drift from them).
 * A success anywhere wins, a late one too (late_refunded_at beside a `failed`, as a charge's late capture); a person deciding comes next; an open attempt is still processing; otherwise the
 * last attempt failed and the refund may be tried again. A late refund of another amount than `refundAmountCents`
 * is no success of ours for our amount: it reads `in_review` while a person has its amount_mismatch item open, and
 * `succeeded` (money did leave) once they close it. refund_public_status (migration 1764680395000) is the same rule.
 */
export function deriveRefundStatus(attempts: ReadonlyArray<RefundStatusAttempt>, hasOpenReviewItem: boolean, refundAmountCents?: number): RefundStatus {
  const late = attempts.filter((a) => a.lateRefundedAt);
  const lateForOurAmount = late.some((a) => a.lateRefundAmountCents == null || refundAmountCents === undefined || a.lateRefundAmountCents === refundAmountCents);
  // A refund the provider made after we had failed its attempt is made: the attempt stays `failed`, the refund is not.
  if (lateForOurAmount || attempts.some((a) => a.status === 'succeeded')) return 'succeeded';
  if (hasOpenReviewItem) return 'in_review';
  if (late.length > 0) return 'succeeded';
  if (attempts.length === 0 || attempts.some((a) => a.status === 'pending' || a.status === 'unknown')) return 'processing';
  return 'failed';
}
