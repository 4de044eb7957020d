import { delayForTry } from '@app/attempts/rules';

/**
 * When the resolver asks the provider again about an `unknown` attempt (DESIGN.md section 6).
 * Tries are numbered from 1; the schedule is RESOLUTION_BACKOFF_MS, parsed once at boot.
 */

/** The wait before try `tryNumber` (1 for the first query); past the list's end the last delay repeats. */
export function resolutionDelayMs(schedule: readonly number[], tryNumber: number): number {
  if (!Number.isInteger(tryNumber) || tryNumber < 1) throw new RangeError(`try number must be a whole number >= 1, got ${tryNumber}`);
  return delayForTry(schedule, tryNumber - 1);
}

/**
 * A margin past the moment a miss can prove absence (`absenceProvableAfterMs`): the next lookup's start is read from
 * the database's clock, a queue's delay from the worker's, and a lookup that starts a hair early only waits again.
 */
export const PROOF_MARGIN_MS = 1000;

/**
 * The wait before try `nextTry` after a lookup missed too early to prove absence, `msUntilProvable` before it could:
 * the next lookup is asked when a miss can prove it (plus the margin), never later than the backoff would ask.
 */
export function delayAfterEarlyMiss(schedule: readonly number[], nextTry: number, msUntilProvable: number): number {
  return Math.min(resolutionDelayMs(schedule, nextTry), Math.max(0, msUntilProvable) + PROOF_MARGIN_MS);
}

/** True when try `tryNumber` was the last one allowed: an undecided answer now goes to a person. */
export function isExhausted(tryNumber: number, maxTries: number): boolean {
  return tryNumber >= maxTries;
}
