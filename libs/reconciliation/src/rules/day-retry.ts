import { delayForTry } from '@app/attempts/rules';

/** What a day's earlier scheduled tries came to: how many failed, and when the last of them finished. */
export interface DayTries {
  failedRuns: number;
  lastFailedAt: Date | null;
}

/**
 * Whether a tick may run a day again. A day never failed is due at once (a missed night, or a report that was not
 * available yet: waiting is not failing). After the n-th failure the day waits the n-th delay of the schedule
 * (the last repeats), counted from when that failure finished, so a provider that keeps failing a day is not asked
 * for its statement at every tick.
 */
export function isDayDue(tries: DayTries, now: Date, backoffMs: readonly number[]): boolean {
  if (tries.failedRuns === 0 || tries.lastFailedAt === null) return true;
  return now.getTime() >= tries.lastFailedAt.getTime() + delayForTry(backoffMs, tries.failedRuns - 1);
}
