import { describe, expect, it } from 'vitest';
import { isDayDue } from './day-retry.js';

const MIN = 60_000;
const SCHEDULE = [30 * MIN, 60 * MIN, 240 * MIN];
const at = (minutes: number) => new Date(Date.UTC(2026, 11, 4) + minutes * MIN);

describe('isDayDue: backoff between tries of a failed day', () => {
  it.each([
    ['never tried (a missed night)', 0, null, 0, true],
    ['never failed, only waited for the report', 0, at(0), 1, true],
    ['failed once, 29 min ago', 1, at(0), 29, false],
    ['failed once, 30 min ago', 1, at(0), 30, true],
    ['failed twice, 59 min ago', 2, at(0), 59, false],
    ['failed twice, 60 min ago', 2, at(0), 60, true],
    ['failed three times, 239 min ago', 3, at(0), 239, false],
    ['failed ten times: the last delay repeats', 10, at(0), 240, true],
    ['failed ten times, 239 min ago', 10, at(0), 239, false],
  ] as const)('%s', (_case, failedRuns, lastFailedAt, minutesLater, due) => {
    expect(isDayDue({ failedRuns, lastFailedAt }, at(minutesLater), SCHEDULE)).toBe(due);
  });

  it('refuses an empty schedule', () => {
    expect(() => isDayDue({ failedRuns: 1, lastFailedAt: at(0) }, at(1), [])).toThrow(RangeError);
  });
});
