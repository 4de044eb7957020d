import { describe, expect, it } from 'vitest';
import { DEFAULT_GIVE_UP_AFTER_MS, deliveryVerdict, nextTryDelayMs } from './delivery-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('the delivery retry schedule', () => {
  it.each([
    [1, 0, 5_000],
    [2, 5_000, MIN],
    [3, MIN, 10 * MIN],
    [4, 11 * MIN, HOUR],
    [5, 2 * HOUR, 6 * HOUR],
    [6, 8 * HOUR, 12 * HOUR],
    [9, 40 * HOUR, 12 * HOUR],
    [12, 59 * HOUR, 12 * HOUR],
    [13, 61 * HOUR, null],
    [40, DEFAULT_GIVE_UP_AFTER_MS, null],
  ])('after %i failed tries of a delivery %i ms old waits %s', (tries, age, wait) => {
    expect(nextTryDelayMs(tries, age)).toBe(wait);
  });

  it('takes a compressed schedule for tests and repeats its last step', () => {
    expect(nextTryDelayMs(1, 0, [50, 100], 1_000)).toBe(50);
    expect(nextTryDelayMs(7, 500, [50, 100], 1_000)).toBe(100);
    expect(nextTryDelayMs(7, 950, [50, 100], 1_000)).toBeNull();
  });

  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [301, 'retry'],
    [400, 'retry'],
    [410, 'gone'],
    [500, 'retry'],
    [null, 'retry'],
  ])('reads HTTP %s as %s', (status, verdict) => {
    expect(deliveryVerdict(status)).toBe(verdict);
  });
});
