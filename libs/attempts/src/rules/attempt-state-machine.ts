import type { AttemptStatus } from './attempt-status.js';

/** Who moved an attempt; recorded with every transition (DESIGN.md section 2). */
export type TransitionCause = 'submit' | 'resolver' | 'webhook' | 'reviewer' | 'reconciliation' | 'sweeper';

const ALLOWED_TRANSITIONS: Readonly<Record<AttemptStatus, readonly AttemptStatus[]>> = {
  pending: ['succeeded', 'failed', 'unknown'],
  unknown: ['succeeded', 'failed'],
  // Terminal: nothing leaves them, so a late webhook or job cannot rewrite money already decided.
  succeeded: [],
  failed: [],
};

/**
 * Every allowed (from, to) pair: the same table the database enforces on every status write (migration
 * AttemptStateTable, held to this one by test/attempt-state-table.test.ts).
 */
export function allowedTransitionPairs(): Array<[AttemptStatus, AttemptStatus]> {
  return (Object.keys(ALLOWED_TRANSITIONS) as AttemptStatus[]).flatMap((from) => ALLOWED_TRANSITIONS[from].map((to): [AttemptStatus, AttemptStatus] => [from, to]));
}

/** Staying in the same status is not a transition: callers must not write or record it. */
export function canTransition(from: AttemptStatus, to: AttemptStatus): boolean {
  return ALLOWED_PAIRS.has(`${from}→${to}`);
}

const ALLOWED_PAIRS = new Set(allowedTransitionPairs().map(([from, to]) => `${from}→${to}`));

/**
 * DESIGN.md section 4 rule 3: a new attempt (and so a new idempotency key) only after every earlier
 * attempt of the charge was resolved as a definitive failure. An open attempt owns the charge, an
 * `unknown` one may already have taken the money, and a succeeded one means the charge is done.
 */
export function mayOpenNewAttempt(attemptStatuses: readonly AttemptStatus[]): boolean {
  return attemptStatuses.every((status) => status === 'failed');
}
