import { describe, expect, it } from 'vitest';
import { PROOF_MARGIN_MS, delayAfterEarlyMiss, isExhausted, resolutionDelayMs } from './resolution-schedule.js';

/** DESIGN.md's schedule, the RESOLUTION_BACKOFF_MS default. */
const DEFAULT_RESOLUTION_BACKOFF_MS = [30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000];

describe('resolutionDelayMs', () => {
  const table: [number, number][] = [
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [4, 300_000],
    [5, 600_000],
    [6, 1_800_000],
    [7, 1_800_000],
    [10, 1_800_000],
  ];

  it.each(table)('waits before try %i: %i ms with the default schedule', (tryNumber, expected) => {
    expect(resolutionDelayMs(DEFAULT_RESOLUTION_BACKOFF_MS, tryNumber)).toBe(expected);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the try number %d (tries count from 1)', (tryNumber) => {
    expect(() => resolutionDelayMs(DEFAULT_RESOLUTION_BACKOFF_MS, tryNumber)).toThrow(RangeError);
  });

  it('refuses an empty schedule', () => {
    expect(() => resolutionDelayMs([], 1)).toThrow(RangeError);
  });
});

describe('delayAfterEarlyMiss', () => {
  const schedule = [2_000, 30_000, 60_000, 120_000, 300_000];
  const table: Array<[string, number, number, number]> = [
    ['the backoff comes first: asked at the backoff', 2, 200_000, 30_000],
    ['absence provable before the backoff: asked right after that moment', 4, 70_000, 70_000 + PROOF_MARGIN_MS],
    ['provable before the last backoff of 300 s: asked then, not at 300 s', 5, 88_000, 88_000 + PROOF_MARGIN_MS],
    ['already provable (a lookup that started early): at once, plus the margin', 3, -5_000, PROOF_MARGIN_MS],
    ['provable a hair after the backoff: the backoff, never later', 2, 29_500, 30_000],
  ];
  it.each(table)('%s', (_, nextTry, msUntilProvable, expected) => {
    expect(delayAfterEarlyMiss(schedule, nextTry, msUntilProvable)).toBe(expected);
  });
});

describe('isExhausted', () => {
  const table: [number, number, boolean][] = [
    [1, 10, false],
    [9, 10, false],
    [10, 10, true],
    [11, 10, true],
    [1, 1, true],
  ];

  it.each(table)('try %i of %i is the last or beyond: %s', (tryNumber, maxTries, expected) => {
    expect(isExhausted(tryNumber, maxTries)).toBe(expected);
  });
});
