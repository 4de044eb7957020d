import type { AttemptStatus } from './attempt-status.js';

/** Who moved an attempt; recorded with every transition (DESIGN.md section 2). */
export type TransitionCause = 'submit' | 'resolver' | 'webhook' | 'reviewer' | 'reconciliation' | 'sweeper';

/** A fact learned about an attempt. The cause is recorded separately: the same fact may come from anyone. */
export type AttemptEvent =
  | { type: 'provider_succeeded' }
  | { type: 'provider_failed' }
  /** The provider knows the charge but has not finished it: nothing to record yet. */
  | { type: 'provider_pending' }
  /** Timeout, 5xx, 409 after sending: the request may have created a charge. */
  | { type: 'outcome_unknown' }
  /** A sender's lease ran out: the process may have died after the request went out. */
  | { type: 'lease_expired' }
  | { type: 'not_found_after_window' }
  | { type: 'reviewer_decided'; outcome: 'succeeded' | 'failed' };

export type AttemptEventType = AttemptEvent['type'];

const ALLOWED_TRANSITIONS: Readonly<Record<AttemptStatus, readonly AttemptStatus[]>> = {
  pending: ['succeeded', 'failed', 'unknown'],
  unknown: ['succeeded', 'failed'],
  // Terminal: nothing leaves them, so a late webhook or job cannot rewrite money already decided.
  succeeded: [],
  failed: [],
};

/** Staying in the same status is not a transition: callers must not write or record it. */
export function canTransition(from: AttemptStatus, to: AttemptStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** Where an event would move an attempt now, or null when it changes nothing or is not allowed. */
export function transitionFor(from: AttemptStatus, event: AttemptEvent): AttemptStatus | null {
  const to = targetOf(from, event);
  return to !== null && canTransition(from, to) ? to : null;
}

function targetOf(from: AttemptStatus, event: AttemptEvent): AttemptStatus | null {
  switch (event.type) {
    case 'provider_succeeded':
      return 'succeeded';
    case 'provider_failed':
      return 'failed';
    case 'provider_pending':
      return null;
    case 'outcome_unknown':
    case 'lease_expired':
      return 'unknown';
    // Only resolution and review own an `unknown` attempt. A `pending` one may be mid-send under a
    // live lease, so "not found" or a person's decision about it would race the sender.
    case 'not_found_after_window':
      return from === 'unknown' ? 'failed' : null;
    case 'reviewer_decided':
      return from === 'unknown' ? event.outcome : null;
    default:
      return assertNever(event);
  }
}

function assertNever(event: never): never {
  throw new Error(`unhandled attempt event ${JSON.stringify(event)}`);
}

/**
 * DESIGN.md section 4 rule 3: a new attempt (and so a new idempotency key) only after every earlier
 * attempt of the charge was resolved as a definitive failure. An open attempt owns the charge, an
 * `unknown` one may already have taken the money, and a succeeded one means the charge is done.
 */
export function mayOpenNewAttempt(attemptStatuses: readonly AttemptStatus[]): boolean {
  return attemptStatuses.every((status) => status === 'failed');
}
