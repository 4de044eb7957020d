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
 * Past the grace a lookup can prove a charge absent, but the backoff alone would ask next at its own pace (at the
 * defaults, 512 s for a 300 s grace). A miss inside the grace is therefore asked again at the earlier of the
 * backoff's moment and the grace's end (plus a small margin for the lookup's own start), never later.
 */
export const GRACE_END_MARGIN_MS = 1000;

export function nextDelayAfterMiss(schedule: readonly number[], nextTry: number, msUntilGraceEnds: number): number {
  const backoff = resolutionDelayMs(schedule, nextTry);
  return Math.min(backoff, Math.max(0, msUntilGraceEnds) + GRACE_END_MARGIN_MS);
}

/** True when try `tryNumber` was the last one allowed: an undecided answer now goes to a person. */
export function isExhausted(tryNumber: number, maxTries: number): boolean {
  return tryNumber >= maxTries;
}
