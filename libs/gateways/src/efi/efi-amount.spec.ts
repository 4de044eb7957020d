import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToValor, valorToCents } from './efi-amount.js';

describe('centsToValor', () => {
  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [99, '0.99'],
    [100, '1.00'],
    [1234, '12.34'],
    [2000, '20.00'],
    [100_000_000, '1000000.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('writes %i cents as %s', (cents, valor) => {
    expect(centsToValor(cents)).toBe(valor);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, Infinity])('refuses %s', (cents) => {
    expect(() => centsToValor(cents)).toThrow(RangeError);
  });
});

describe('valorToCents', () => {
  it.each<[unknown, number | null]>([
    ['0.01', 1],
    ['12.34', 1234],
    ['1000000.00', 100_000_000],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
    ['12.3', null],
    ['12', null],
    ['12.345', null],
    ['012.34', null],
    ['-1.00', null],
    ['1,00', null],
    [' 1.00', null],
    ['1e2.00', null],
    ['90071992547409.92', null],
    [12.34, null],
    [null, null],
  ])('reads %j as %j', (valor, cents) => {
    expect(valorToCents(valor)).toBe(cents);
  });

  it('round-trips every safe amount exactly', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      expect(valorToCents(centsToValor(cents))).toBe(cents);
    }));
  });
});
