const VALOR = /^(0|[1-9]\d*)\.(\d{2})$/;

/**
 * Cents to the Pix `valor` string ("12.34"), by string arithmetic only: a float never touches money.
 * Refuses anything but a positive safe integer.
 */
export function centsToValor(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`amount must be a positive integer number of cents, got ${cents}`);
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A Pix `valor` ("12.34") back to cents, or null when it is not exactly that shape (never rounded). */
export function valorToCents(valor: unknown): number | null {
  if (typeof valor !== 'string') return null;
  const match = VALOR.exec(valor);
  if (!match) return null;
  const cents = Number(`${match[1]}${match[2]}`);
  return Number.isSafeInteger(cents) ? cents : null;
}
