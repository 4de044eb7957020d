import { describe, expect, it } from 'vitest';
import { isoCurrency } from './iso-currency.js';

describe('isoCurrency', () => {
  it.each([
    ['usd', 2],
    ['USD', 2],
    ['jpy', 0],
    ['krw', 0],
    ['bhd', 3],
    ['kwd', 3],
    ['brl', 2],
    ['isk', 0],
  ])('knows %s has %i minor units', (code, minorUnits) => {
    expect(isoCurrency(code)).toEqual({ code: code.toLowerCase(), minorUnits });
  });

  it.each(['xxx', 'xts', 'xau', 'xag', 'xpt', 'xpd', 'xba', 'xbd', 'xdr', 'xsu', 'xua', 'bov', 'clf', 'cou', 'mxv', 'usn', 'uyi', 'uyw', 'che', 'chw'])(
    'refuses %s: in ISO 4217, but not money a customer pays in',
    (code) => expect(isoCurrency(code)).toBeNull(),
  );

  it.each(['abc', 'us', 'usdd', 'u$d', ''])('refuses %j: no ISO 4217 code', (code) => expect(isoCurrency(code)).toBeNull());
});
