import { InvalidBackoffScheduleError } from './attempt-rules.errors.js';

/** setTimeout's (and so Bull's) limit; a longer delay is a unit mistake, not a plan. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * Parses a delay list from the environment, e.g. `RESEND_BACKOFF_MS="1000,5000,30000"`. Fails at boot
 * with the setting's name: a typo here would otherwise surface as a resend storm or a stuck attempt.
 */
export function parseBackoffList(raw: string, name: string): number[] {
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') {
    throw new InvalidBackoffScheduleError(name, 'is empty: expected a comma-separated list of delays in ms, e.g. "30000,60000"');
  }
  return entries.map((entry, position) => {
    const delay = Number(entry);
    if (!/^\d+$/.test(entry) || delay <= 0 || delay > MAX_DELAY_MS) {
      throw new InvalidBackoffScheduleError(
        name,
        `entry ${position + 1} ("${entry}") is not a whole number of milliseconds between 1 and ${MAX_DELAY_MS}`,
      );
    }
    return delay;
  });
}

/** The wait before retry `tryIndex` (0 for the first); past the end of the list the last delay repeats. */
export function delayForTry(schedule: readonly number[], tryIndex: number): number {
  if (schedule.length === 0) throw new RangeError('backoff schedule is empty');
  if (!Number.isInteger(tryIndex) || tryIndex < 0) throw new RangeError(`try index must be a whole number >= 0, got ${tryIndex}`);
  return schedule[Math.min(tryIndex, schedule.length - 1)];
}
