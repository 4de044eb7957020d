/**
 * Asaas speaks decimal reais (`value: 49.9`); we keep integer cents. Both directions are string
 * arithmetic on the digits, never `cents / 100` or `value * 100`: a binary float cannot hold most
 * decimal fractions, and a rounding slip here is a wrong charge.
 */

/** 4990 → "49.90"; 5 → "0.05". The text goes into the JSON body as a number literal. */
export function centsToReais(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`amount must be a non-negative safe integer of cents; got ${cents}`);
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * "49.9", 49.9 or "49.90" → 4990. A JSON number reaches us as a double; `String(double)` is the
 * shortest text that reads back to the same double, so for any value with at most two decimals it is
 * exactly the text Asaas wrote. Anything else (more decimals, exponents, negatives, junk) is NaN:
 * callers treat it as an amount that does not match ours, which sends the case to a person.
 */
export function reaisToCents(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = DECIMAL.exec(text);
  if (!match) return Number.NaN;
  const cents = Number(`${match[1]}${(match[2] ?? '').padEnd(2, '0')}`);
  return Number.isSafeInteger(cents) ? cents : Number.NaN;
}
