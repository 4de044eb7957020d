import type { AttemptStatus } from '@app/attempts/rules';

export type ChargeStatus = 'created' | 'processing' | 'in_review' | 'succeeded' | 'failed';

/**
 * What a client sees, derived from the attempts (never stored, so it cannot drift from them).
 * A success anywhere wins: a charge that succeeded is succeeded whatever came after.
 */
export function deriveChargeStatus(attempts: ReadonlyArray<{ status: AttemptStatus }>, hasOpenReviewItem: boolean): ChargeStatus {
  if (attempts.length === 0) return 'created';
  if (attempts.some((a) => a.status === 'succeeded')) return 'succeeded';
  // A person is deciding: an unknown attempt, or a provider success reported for an attempt we failed.
  if (hasOpenReviewItem) return 'in_review';
  const open = attempts.find((a) => a.status === 'pending' || a.status === 'unknown');
  return open ? 'processing' : 'failed';
}
