import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMovement, type LedgerMovementKind, type MovementResult } from './ledger-movement.js';

const ok = (availableCents: number, reservedCents: number, owedCents = 0): MovementResult => ({ ok: true, balance: { availableCents, reservedCents, owedCents } });

describe('applyMovement', () => {
  it.each<[LedgerMovementKind, number, number, number, number, ReturnType<typeof applyMovement>]>([
    ['credit', 0, 0, 0, 500, ok(500, 0)],
    ['reserve', 500, 0, 0, 500, ok(0, 500)],
    ['reserve', 499, 0, 0, 500, { ok: false, reason: 'insufficient_available' }],
    ['release', 0, 500, 0, 500, ok(500, 0)],
    ['release', 0, 499, 0, 500, { ok: false, reason: 'insufficient_reserved' }],
    ['debit', 100, 500, 0, 500, ok(100, 0)],
    ['debit', 100, 499, 0, 500, { ok: false, reason: 'insufficient_reserved' }],
    ['credit', 0, 0, 0, 0, { ok: false, reason: 'invalid_amount' }],
    ['reserve', 10, 0, 0, -1, { ok: false, reason: 'invalid_amount' }],
    ['credit', 0, 0, 0, 1.5, { ok: false, reason: 'invalid_amount' }],
    ['credit', Number.MAX_SAFE_INTEGER, 0, 0, 1, { ok: false, reason: 'balance_overflow' }],
    // What is reserved comes back to available on a release: the two together must stay exact.
    ['credit', Number.MAX_SAFE_INTEGER - 10, 10, 0, 1, { ok: false, reason: 'balance_overflow' }],
    // A payout released as failed left after all: available covers what it can, the rest is owed.
    ['late_debit', 1_000, 0, 0, 2_000, ok(0, 0, 1_000)],
    ['late_debit', 5_000, 0, 0, 2_000, ok(3_000, 0, 0)],
    ['late_debit', 0, 700, 300, 2_000, ok(0, 700, 2_300)],
    ['late_debit', 0, 0, 0, 0, { ok: false, reason: 'invalid_amount' }],
    ['late_debit', 0, 0, Number.MAX_SAFE_INTEGER, 1, { ok: false, reason: 'balance_overflow' }],
    // While it owes, an account reserves nothing, whatever it holds; money in repays the debt first.
    ['reserve', 5_000, 0, 1, 100, { ok: false, reason: 'account_owes' }],
    ['credit', 0, 0, 1_000, 1_500, ok(500, 0, 0)],
    ['credit', 0, 0, 1_000, 400, ok(0, 0, 600)],
    ['credit', 0, 0, 1_000, 1_000, ok(0, 0, 0)],
    ['release', 0, 800, 500, 800, ok(300, 0, 0)],
    ['debit', 0, 800, 500, 800, ok(0, 0, 500)],
  ])('%s from available %i reserved %i owed %i by %i', (kind, availableCents, reservedCents, owedCents, amount, expected) => {
    expect(applyMovement({ availableCents, reservedCents, owedCents }, kind, amount)).toEqual(expected);
  });

  it('never leaves a negative column, and conserves money: available + reserved - owed = credited - debited', () => {
    const kinds: LedgerMovementKind[] = ['credit', 'reserve', 'release', 'debit', 'late_debit'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...kinds), fc.integer({ min: 1, max: 10_000 })), { maxLength: 60 }), (moves) => {
        let balance = { availableCents: 0, reservedCents: 0, owedCents: 0 };
        let credited = 0;
        let debited = 0;
        for (const [kind, amount] of moves) {
          const result = applyMovement(balance, kind, amount);
          if (!result.ok) continue;
          balance = result.balance;
          if (kind === 'credit') credited += amount;
          if (kind === 'debit' || kind === 'late_debit') debited += amount;
          expect(balance.availableCents).toBeGreaterThanOrEqual(0);
          expect(balance.reservedCents).toBeGreaterThanOrEqual(0);
          expect(balance.owedCents).toBeGreaterThanOrEqual(0);
          // Nothing is spendable while something is owed.
          expect(balance.owedCents === 0 || balance.availableCents === 0).toBe(true);
        }
        expect(balance.availableCents + balance.reservedCents - balance.owedCents).toBe(credited - debited);
      }),
    );
  });
});
