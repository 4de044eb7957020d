/**
 * The four states of a charge attempt (DESIGN.md section 2). `unknown` is a real, persisted state:
 * the call may or may not have created a charge, and only the provider can tell us which.
 */
export type AttemptStatus = 'pending' | 'succeeded' | 'failed' | 'unknown';

export const ATTEMPT_STATUSES: readonly AttemptStatus[] = ['pending', 'succeeded', 'failed', 'unknown'];

/**
 * Statuses in which an attempt still owns its charge. Matches the partial unique index
 * `UNIQUE (charge_id) WHERE status IN ('pending','unknown')`: keep the two in step.
 */
export const OPEN_ATTEMPT_STATUSES: readonly AttemptStatus[] = ['pending', 'unknown'];

export const TERMINAL_ATTEMPT_STATUSES: readonly AttemptStatus[] = ['succeeded', 'failed'];

/** Terminal statuses never change again; a late job or webhook must not rewrite them. */
export function isTerminal(status: AttemptStatus): boolean {
  return TERMINAL_ATTEMPT_STATUSES.includes(status);
}

/** An open attempt blocks a new attempt (and a new idempotency key) for the same charge. */
export function isOpen(status: AttemptStatus): boolean {
  return OPEN_ATTEMPT_STATUSES.includes(status);
}
