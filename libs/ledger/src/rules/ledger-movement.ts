/**
 * How each kind of ledger entry moves an account's balance. Pure: the service applies the result with a
 * compare-and-set UPDATE under the account's row lock, and the table's CHECKs back it up.
 *
 *   credit      owed - r, available + (a - r)   where r = min(a, owed): money in repays a debt first
 *   reserve     available - a, reserved + a     (refused when available < a, or while the account owes)
 *   release     reserved - a, then as a credit  (the reservation goes back: the payout failed)
 *   debit       reserved - a                    (the reservation leaves for good: the payout succeeded)
 *   late_debit  available - t, owed + (a - t)   where t = min(a, available): a payout released as failed
 *                                               left after all; what available cannot cover is owed
 *
 * So available, reserved and owed are never negative, and available + reserved - owed = credits - debits.
 */
export type LedgerMovementKind = 'credit' | 'reserve' | 'release' | 'debit' | 'late_debit';

export interface LedgerBalance {
  availableCents: number;
  reservedCents: number;
  owedCents: number;
}

export type MovementResult =
  | { ok: true; balance: LedgerBalance }
  /** `balance_overflow`: the balance would pass 2^53 - 1 minor units, past what the ledger counts exactly. */
  | { ok: false; reason: 'insufficient_available' | 'insufficient_reserved' | 'invalid_amount' | 'account_owes' | 'balance_overflow' };

export function applyMovement(balance: LedgerBalance, kind: LedgerMovementKind, amountCents: number): MovementResult {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return { ok: false, reason: 'invalid_amount' };
  const { availableCents, reservedCents, owedCents } = balance;
  switch (kind) {
    case 'credit':
      if (!Number.isSafeInteger(availableCents + reservedCents + amountCents)) return { ok: false, reason: 'balance_overflow' };
      return { ok: true, balance: moneyIn(balance, amountCents) };
    case 'reserve':
      // An account that owes sends nothing: what it holds goes to the debt first.
      if (owedCents > 0) return { ok: false, reason: 'account_owes' };
      if (availableCents < amountCents) return { ok: false, reason: 'insufficient_available' };
      return { ok: true, balance: { availableCents: availableCents - amountCents, reservedCents: reservedCents + amountCents, owedCents } };
    case 'release':
      if (reservedCents < amountCents) return { ok: false, reason: 'insufficient_reserved' };
      return { ok: true, balance: moneyIn({ availableCents, reservedCents: reservedCents - amountCents, owedCents }, amountCents) };
    case 'debit':
      if (reservedCents < amountCents) return { ok: false, reason: 'insufficient_reserved' };
      return { ok: true, balance: { availableCents, reservedCents: reservedCents - amountCents, owedCents } };
    case 'late_debit': {
      if (!Number.isSafeInteger(owedCents + amountCents)) return { ok: false, reason: 'balance_overflow' };
      const taken = Math.min(amountCents, availableCents);
      return { ok: true, balance: { availableCents: availableCents - taken, reservedCents, owedCents: owedCents + amountCents - taken } };
    }
  }
}

/** Money arriving in available repays what is owed first; only the rest can be spent. */
function moneyIn(balance: LedgerBalance, amountCents: number): LedgerBalance {
  const repaid = Math.min(amountCents, balance.owedCents);
  return { availableCents: balance.availableCents + amountCents - repaid, reservedCents: balance.reservedCents, owedCents: balance.owedCents - repaid };
}
