import { isOpen, type AttemptStatus } from './attempt-status.js';
import { mayOpenNewAttempt } from './attempt-state-machine.js';
import { failedOnOurJudgement } from './provider-fact.js';

interface OpeningAttempt {
  status: AttemptStatus;
  providerChargeId: string | null;
  resolvedBy: string | null;
  recheckedAt: Date | null;
  /** The provider captured it after we had failed it (charge attempts only; absent elsewhere). */
  lateCapturedAt?: Date | null;
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
export function decideOpening<A extends OpeningAttempt>(attempts: readonly A[], inReview: boolean): OpeningDecision<A> {
  const open = attempts.find((a) => isOpen(a.status));
  if (open) return { kind: 'reuse', attempt: open };
  const succeeded = attempts.find((a) => a.status === 'succeeded');
  if (succeeded) return { kind: 'settled', attempt: succeeded };
  const captured = attempts.find((a) => a.lateCapturedAt);
  if (captured) return { kind: 'captured', attempt: captured };
  if (inReview) return { kind: 'in_review' };
  if (!mayOpenNewAttempt(attempts.map((a) => a.status))) return { kind: 'settled', attempt: attempts[attempts.length - 1] };
  const last = attempts.at(-1);
  if (last && failedOnOurJudgement(last) && !last.recheckedAt) return { kind: 'recheck', attempt: last };
  return { kind: 'create' };
}
