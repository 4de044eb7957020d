import { isOpen, type AttemptStatus } from './attempt-status.js';
import { mayOpenNewAttempt } from './attempt-state-machine.js';
import { failedOnOurJudgement } from './provider-fact.js';

interface OpeningAttempt {
  status: AttemptStatus;
  resolvedBy: string | null;
  recheckedAt: Date | null;
  /** The provider captured it after we had failed it (charge attempts only; absent elsewhere). */
  lateCapturedAt?: Date | null;
  /** The provider refunded it after we had failed it (refund attempts only): the refund is made, none opens again. */
  lateRefundedAt?: Date | null;
}

/** How long a clean re-check vouches for an attempt, on the database's clock: a provider can still create later. */
export interface RecheckValidity {
  now: Date;
  validMs: number;
}

/**
 * Whether the failed-as-not-found attempt must be queried again before a new attempt opens: it was never
 * re-checked, or its clean re-check is older than `validMs` (the late create may have landed since).
 */
export function needsRecheck(attempt: OpeningAttempt, validity: RecheckValidity): boolean {
  if (!failedOnOurJudgement(attempt)) return false;
  return !attempt.recheckedAt || validity.now.getTime() - attempt.recheckedAt.getTime() > validity.validMs;
}

export type OpeningDecision<A> =
  | { kind: 'reuse'; attempt: A }
  | { kind: 'in_review' }
  | { kind: 'settled'; attempt: A }
  /** The provider captured an attempt we had failed: the charge is paid and never opens another attempt. */
  | { kind: 'captured'; attempt: A }
  /** The last attempt was failed as not found: query it once more before a new one opens. */
  | { kind: 'recheck'; attempt: A }
  | { kind: 'create' };

/**
 * What submitting a charge does, given its charge attempts (oldest first) and whether a person is deciding
 * about one: reuse the open attempt, report a settled or late-captured charge, refuse while in review, re-check a
 * failed-as-not-found attempt, or open a new attempt. The same rules for the locked path and the hot path's unlocked
 * read. A capture comes before a review: what a person acknowledges never re-opens a charge the provider holds.
 */
export function decideOpening<A extends OpeningAttempt>(attempts: readonly A[], inReview: boolean, recheck: RecheckValidity): OpeningDecision<A> {
  const open = attempts.find((a) => isOpen(a.status));
  if (open) return { kind: 'reuse', attempt: open };
  const succeeded = attempts.find((a) => a.status === 'succeeded');
  if (succeeded) return { kind: 'settled', attempt: succeeded };
  const captured = attempts.find((a) => a.lateCapturedAt);
  if (captured) return { kind: 'captured', attempt: captured };
  const refunded = attempts.find((a) => a.lateRefundedAt);
  if (refunded) return { kind: 'settled', attempt: refunded };
  if (inReview) return { kind: 'in_review' };
  if (!mayOpenNewAttempt(attempts.map((a) => a.status))) return { kind: 'settled', attempt: attempts[attempts.length - 1] };
  // Any attempt we failed as not found, not only the last: its create may land after a later attempt was declined.
  const unverified = attempts.find((a) => needsRecheck(a, recheck));
  if (unverified) return { kind: 'recheck', attempt: unverified };
  return { kind: 'create' };
}
