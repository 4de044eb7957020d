import { describe, expect, it } from 'vitest';
import { delayForTry } from './backoff-schedule.js';

describe('delayForTry', () => {
  const schedule = [30_000, 60_000, 120_000];
  const table: [number, number][] = [
    [0, 30_000],
    [1, 60_000],
    [2, 120_000],
    [3, 120_000],
    [50, 120_000],
  ];

  it.each(table)('waits before retry index %i: %i ms (the last delay repeats)', (tryIndex, expected) => {
    expect(delayForTry(schedule, tryIndex)).toBe(expected);
  });

  it.each([-1, 1.5, Number.NaN])('refuses the try index %d', (tryIndex) => {
    expect(() => delayForTry(schedule, tryIndex)).toThrow(RangeError);
  });

  it('refuses an empty schedule', () => {
    expect(() => delayForTry([], 0)).toThrow(RangeError);
  });
});
