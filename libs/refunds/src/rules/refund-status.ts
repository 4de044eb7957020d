import type { AttemptStatus } from '@app/attempts';

export type RefundStatus = 'processing' | 'succeeded' | 'failed' | 'in_review';

/**
 * What a client sees of a refund, derived from its attempts (never stored, so it cannot drift from them).
 * A success anywhere wins, a late one too (late_refunded_at beside a `failed`, as a charge's late capture); a person deciding comes next; an open attempt is still processing; otherwise the
 * last attempt failed and the refund may be tried again.
 */
export function deriveRefundStatus(attempts: ReadonlyArray<{ status: AttemptStatus; lateRefundedAt?: Date | null }>, hasOpenReviewItem: boolean): RefundStatus {
  // A refund the provider made after we had failed its attempt is made: the attempt stays `failed`, the refund is not.
  if (attempts.some((a) => a.status === 'succeeded' || a.lateRefundedAt)) return 'succeeded';
  if (hasOpenReviewItem) return 'in_review';
  if (attempts.length === 0 || attempts.some((a) => a.status === 'pending' || a.status === 'unknown')) return 'processing';
  return 'failed';
}
