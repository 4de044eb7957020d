import { describe, expect, it } from 'vitest';
import { needsSecondPerson } from './four-eyes.js';

describe('needsSecondPerson', () => {
  it.each([
    [99_999, 100_000, false],
    [100_000, 100_000, true],
    [100_001, 100_000, true],
    [1, 1, true],
  ])('%i at a four-eyes amount of %i: %s', (amount, threshold, expected) => {
    expect(needsSecondPerson(amount, threshold)).toBe(expected);
  });
});
