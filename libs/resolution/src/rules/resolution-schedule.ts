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

/** True when try `tryNumber` was the last one allowed: an undecided answer now goes to a person. */
export function isExhausted(tryNumber: number, maxTries: number): boolean {
  return tryNumber >= maxTries;
}
