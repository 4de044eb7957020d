/**
 * When the resolver asks the provider again about an `unknown` attempt (DESIGN.md section 6).
 * Tries are numbered from 1. Kept free of imports from @app/attempts so the rule stands alone; the
 * backoff list itself is parsed once at boot by the config (parseBackoffList).
 */

/** DESIGN.md defaults: 30 s, 60 s, 120 s, 300 s, 600 s, then every 1800 s. */
export const DEFAULT_RESOLUTION_BACKOFF_MS: readonly number[] = [30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000];
export const DEFAULT_MAX_RESOLUTION_TRIES = 10;

/** The wait before try `tryNumber` (1 for the first query); past the list's end the last delay repeats. */
export function resolutionDelayMs(schedule: readonly number[], tryNumber: number): number {
  if (schedule.length === 0) throw new RangeError('resolution backoff schedule is empty');
  if (!Number.isInteger(tryNumber) || tryNumber < 1) throw new RangeError(`try number must be a whole number >= 1, got ${tryNumber}`);
  return schedule[Math.min(tryNumber, schedule.length) - 1];
}

/** True when try `tryNumber` was the last one allowed: an undecided answer now goes to a person. */
export function isExhausted(tryNumber: number, maxTries: number): boolean {
  return tryNumber >= maxTries;
}
