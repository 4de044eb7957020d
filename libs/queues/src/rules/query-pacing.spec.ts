import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARRIVAL_SPREAD_MS, OFFSET_KEPT_MS, busiestWindow, SLOT_USE_MS, narrowOffset, querySpacingMs, slotStillUsable } from './query-pacing.js';

describe('querySpacingMs', () => {
  it.each([2, 10, 20, 100, 200, 1000])('at %i/s keeps the pace between 95 %% and 100 %% of the budget', (perSecond) => {
    const pace = 1000 / querySpacingMs(perSecond);
    expect(pace).toBeLessThan(perSecond);
    expect(pace).toBeGreaterThanOrEqual(0.95 * perSecond);
  });

  it('never lets more than the budget reach the provider in a sliding second, each query up to the spread after its slot', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.array(fc.double({ min: 0, max: ARRIVAL_SPREAD_MS, noNaN: true }), { minLength: 1, maxLength: 900 }), (perSecond, lateness) => {
        const spacing = querySpacingMs(perSecond);
        const arrivals = lateness.map((late, slot) => slot * spacing + late);
        expect(busiestWindow([...arrivals].sort((a, b) => a - b))).toBeLessThanOrEqual(perSecond);
      }),
    );
  });

  it.each([0, -1, Number.NaN])('refuses a budget of %d', (perSecond) => {
    expect(() => querySpacingMs(perSecond)).toThrow(RangeError);
  });
});

describe('slotStillUsable', () => {
  it.each([
    [0, true],
    [SLOT_USE_MS, true],
    [SLOT_USE_MS + 0.1, false],
    [500, false],
  ])('a slot used %d ms after its time: %s', (lateMs, usable) => {
    expect(slotStillUsable(lateMs)).toBe(usable);
  });

  it('leaves part of the spread for the request to leave after its slot is used', () => {
    expect(SLOT_USE_MS).toBeLessThan(ARRIVAL_SPREAD_MS);
  });
});

describe('narrowOffset', () => {
  it('keeps the tightest bounds of recent round trips, whatever a slow one says', () => {
    const first = narrowOffset(null, { askedAt: 100, heardAt: 110, redisNow: 1105 });
    expect(first).toEqual({ lo: 995, hi: 1005, since: 100 });
    const slow = narrowOffset(first, { askedAt: 200, heardAt: 260, redisNow: 1230 });
    expect(slow).toEqual({ lo: 995, hi: 1005, since: 100 });
    expect(narrowOffset(slow, { askedAt: 300, heardAt: 301, redisNow: 1300.5 })).toEqual({ lo: 999.5, hi: 1000.5, since: 100 });
  });

  it('starts again from one trip when the bounds are old or a clock stepped', () => {
    const kept = { lo: 999.5, hi: 1000.5, since: 0 };
    expect(narrowOffset(kept, { askedAt: OFFSET_KEPT_MS + 1, heardAt: OFFSET_KEPT_MS + 3, redisNow: OFFSET_KEPT_MS + 1002 })).toEqual({ lo: 999, hi: 1001, since: OFFSET_KEPT_MS + 1 });
    expect(narrowOffset(kept, { askedAt: 10, heardAt: 12, redisNow: 5011 })).toEqual({ lo: 4999, hi: 5001, since: 10 });
  });
});

describe('busiestWindow', () => {
  it.each([
    [[], 0],
    [[0], 1],
    [[0, 1000], 2],
    [[0, 1000.5], 1],
    [[0, 10, 20, 1015, 1016], 3],
  ])('%j holds at most %i in a sliding second', (times, most) => {
    expect(busiestWindow(times)).toBe(most);
  });
});
