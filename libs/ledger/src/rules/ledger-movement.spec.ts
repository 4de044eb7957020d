import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMovement, type LedgerMovementKind } from './ledger-movement.js';

describe('applyMovement', () => {
  it.each<[LedgerMovementKind, number, number, number, ReturnType<typeof applyMovement>]>([
    ['credit', 0, 0, 500, { ok: true, balance: { availableCents: 500, reservedCents: 0 } }],
    ['reserve', 500, 0, 500, { ok: true, balance: { availableCents: 0, reservedCents: 500 } }],
    ['reserve', 499, 0, 500, { ok: false, reason: 'insufficient_available' }],
    ['release', 0, 500, 500, { ok: true, balance: { availableCents: 500, reservedCents: 0 } }],
    ['release', 0, 499, 500, { ok: false, reason: 'insufficient_reserved' }],
    ['debit', 100, 500, 500, { ok: true, balance: { availableCents: 100, reservedCents: 0 } }],
    ['debit', 100, 499, 500, { ok: false, reason: 'insufficient_reserved' }],
    ['credit', 0, 0, 0, { ok: false, reason: 'invalid_amount' }],
    ['reserve', 10, 0, -1, { ok: false, reason: 'invalid_amount' }],
    ['credit', 0, 0, 1.5, { ok: false, reason: 'invalid_amount' }],
    ['credit', Number.MAX_SAFE_INTEGER, 0, 1, { ok: false, reason: 'invalid_amount' }],
  ])('%s from available %i reserved %i by %i', (kind, availableCents, reservedCents, amount, expected) => {
    expect(applyMovement({ availableCents, reservedCents }, kind, amount)).toEqual(expected);
  });

  it('never leaves a negative balance, and conserves money: available + reserved + debited = credited', () => {
    const kinds: LedgerMovementKind[] = ['credit', 'reserve', 'release', 'debit'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...kinds), fc.integer({ min: 1, max: 10_000 })), { maxLength: 60 }), (moves) => {
        let balance = { availableCents: 0, reservedCents: 0 };
        let credited = 0;
        let debited = 0;
        for (const [kind, amount] of moves) {
          const result = applyMovement(balance, kind, amount);
          if (!result.ok) continue;
          balance = result.balance;
          if (kind === 'credit') credited += amount;
          if (kind === 'debit') debited += amount;
          expect(balance.availableCents).toBeGreaterThanOrEqual(0);
          expect(balance.reservedCents).toBeGreaterThanOrEqual(0);
        }
        expect(balance.availableCents + balance.reservedCents + debited).toBe(credited);
      }),
    );
  });
});
