import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToReais, reaisToCents } from './asaas-amount.js';

describe('centsToReais', () => {
  it.each<[number, string]>([
    [4990, '49.90'],
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [0, '0.00'],
    [500, '5.00'],
    // Doubles cannot hold these as fractions: string math keeps every cent.
    [1999, '19.99'],
    [110, '1.10'],
    [123456789, '1234567.89'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%i cents → "%s"', (cents, text) => {
    expect(centsToReais(cents)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('refuses %d', (cents) => {
    expect(() => centsToReais(cents)).toThrow(RangeError);
  });
});

describe('reaisToCents', () => {
  it.each<[unknown, number]>([
    [49.9, 4990],
    ['49.90', 4990],
    ['49.9', 4990],
    [0.1, 10],
    [0.01, 1],
    [1.1, 110],
    [19.99, 1999],
    [5, 500],
    ['5', 500],
    [1234567.89, 123456789],
  ])('%s → %i cents', (value, cents) => {
    expect(reaisToCents(value)).toBe(cents);
  });

  it.each<[unknown]>([[49.999], ['1e3'], [1e21], [-5], ['-5.00'], ['abc'], [''], [null], [undefined], [{}], ['5.'], ['.5']])(
    '%s is not an amount in reais: NaN',
    (value) => {
      expect(reaisToCents(value)).toBeNaN();
    },
  );

  it('reads back every amount it wrote, as text and as the JSON number Asaas returns', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const text = centsToReais(cents);
        expect(reaisToCents(text)).toBe(cents);
        expect(reaisToCents(JSON.parse(text))).toBe(cents);
      }),
    );
  });
});
