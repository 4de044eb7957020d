import { describe, expect, it } from 'vitest';
import { createPrng } from './prng.js';

describe('createPrng', () => {
  it('draws the same sequence for the same seed', () => {
    const a = createPrng(42);
    const b = createPrng(42);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });

  it('draws different sequences for different seeds', () => {
    expect(createPrng(1)()).not.toBe(createPrng(2)());
  });

  it('stays within [0, 1) and spreads roughly evenly', () => {
    const next = createPrng(7);
    const draws = Array.from({ length: 10_000 }, next);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    const belowHalf = draws.filter((x) => x < 0.5).length;
    expect(belowHalf).toBeGreaterThan(4_800);
    expect(belowHalf).toBeLessThan(5_200);
  });
});
