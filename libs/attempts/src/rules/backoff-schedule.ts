/** The wait before retry `tryIndex` (0 for the first); past the end of the list the last delay repeats. */
export function delayForTry(schedule: readonly number[], tryIndex: number): number {
  if (schedule.length === 0) throw new RangeError('backoff schedule is empty');
  if (!Number.isInteger(tryIndex) || tryIndex < 0) throw new RangeError(`try index must be a whole number >= 0, got ${tryIndex}`);
  return schedule[Math.min(tryIndex, schedule.length - 1)];
}
