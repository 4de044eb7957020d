/**
 * How each kind of ledger entry moves an account's balance. Pure: the service applies the result with a
 * compare-and-set UPDATE under the account's row lock, and the table's CHECK backs it up.
 *
 *   credit   available + a
 *   reserve  available - a, reserved + a   (refused when available < a)
 *   release  reserved - a, available + a   (the reservation goes back: the payout failed)
 *   debit    reserved - a                  (the reservation leaves for good: the payout succeeded)
 */
export type LedgerMovementKind = 'credit' | 'reserve' | 'release' | 'debit';

export interface LedgerBalance {
  availableCents: number;
  reservedCents: number;
}

export type MovementResult =
  | { ok: true; balance: LedgerBalance }
  | { ok: false; reason: 'insufficient_available' | 'insufficient_reserved' | 'invalid_amount' };

export function applyMovement(balance: LedgerBalance, kind: LedgerMovementKind, amountCents: number): MovementResult {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return { ok: false, reason: 'invalid_amount' };
  const { availableCents, reservedCents } = balance;
  switch (kind) {
    case 'credit':
      if (!Number.isSafeInteger(availableCents + amountCents)) return { ok: false, reason: 'invalid_amount' };
      return { ok: true, balance: { availableCents: availableCents + amountCents, reservedCents } };
    case 'reserve':
      if (availableCents < amountCents) return { ok: false, reason: 'insufficient_available' };
      return { ok: true, balance: { availableCents: availableCents - amountCents, reservedCents: reservedCents + amountCents } };
    case 'release':
      if (reservedCents < amountCents) return { ok: false, reason: 'insufficient_reserved' };
      return { ok: true, balance: { availableCents: availableCents + amountCents, reservedCents: reservedCents - amountCents } };
    case 'debit':
      if (reservedCents < amountCents) return { ok: false, reason: 'insufficient_reserved' };
      return { ok: true, balance: { availableCents, reservedCents: reservedCents - amountCents } };
  }
}
