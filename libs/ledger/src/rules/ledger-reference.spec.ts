import { describe, expect, it } from 'vitest';
import { decideForReference, type ReferenceDecision, type ReferenceHistory } from './ledger-reference.js';
import type { LedgerMovementKind } from './ledger-movement.js';

const reserved: ReferenceHistory = { kind: 'reserve', amountCents: 700 };

describe('decideForReference', () => {
  it.each<[string, LedgerMovementKind, number | null, ReferenceHistory[], ReferenceDecision]>([
    ['a first credit applies', 'credit', 500, [], { action: 'apply', amountCents: 500 }],
    ['a repeated credit replays', 'credit', 500, [{ kind: 'credit', amountCents: 500 }], { action: 'replay' }],
    ['a credit reusing a reference for another amount is refused', 'credit', 501, [{ kind: 'credit', amountCents: 500 }], { action: 'refuse', reason: 'amount_differs' }],
    ['a first reservation applies', 'reserve', 700, [], { action: 'apply', amountCents: 700 }],
    ['a repeated reservation replays', 'reserve', 700, [reserved], { action: 'replay' }],
    ['a reservation for another amount is refused', 'reserve', 70, [reserved], { action: 'refuse', reason: 'amount_differs' }],
    ['a release settles the whole reservation', 'release', null, [reserved], { action: 'apply', amountCents: 700 }],
    ['a debit settles the whole reservation', 'debit', null, [reserved], { action: 'apply', amountCents: 700 }],
    ['a repeated release replays', 'release', null, [reserved, { kind: 'release', amountCents: 700 }], { action: 'replay' }],
    ['a repeated debit replays', 'debit', null, [reserved, { kind: 'debit', amountCents: 700 }], { action: 'replay' }],
    ['a release after a debit is refused', 'release', null, [reserved, { kind: 'debit', amountCents: 700 }], { action: 'refuse', reason: 'settled_otherwise' }],
    ['a debit after a release is refused', 'debit', null, [reserved, { kind: 'release', amountCents: 700 }], { action: 'refuse', reason: 'settled_otherwise' }],
    ['a release without a reservation is refused', 'release', null, [], { action: 'refuse', reason: 'no_reservation' }],
    ['a debit without a reservation is refused', 'debit', null, [{ kind: 'credit', amountCents: 700 }], { action: 'refuse', reason: 'no_reservation' }],
    ['a late debit after a release applies for the transfer', 'late_debit', 700, [reserved, { kind: 'release', amountCents: 700 }], { action: 'apply', amountCents: 700 }],
    ['a repeated late debit replays', 'late_debit', 700, [reserved, { kind: 'release', amountCents: 700 }, { kind: 'late_debit', amountCents: 700 }], { action: 'replay' }],
    ['a late debit for another amount is refused', 'late_debit', 70, [reserved, { kind: 'release', amountCents: 700 }, { kind: 'late_debit', amountCents: 700 }], { action: 'refuse', reason: 'amount_differs' }],
    ['a late debit of a debited reservation is refused', 'late_debit', 700, [reserved, { kind: 'debit', amountCents: 700 }], { action: 'refuse', reason: 'settled_otherwise' }],
    ['a late debit of a reservation still held is refused', 'late_debit', 700, [reserved], { action: 'refuse', reason: 'not_released' }],
  ])('%s', (_title, kind, requested, history, expected) => {
    expect(decideForReference(kind, requested, history)).toEqual(expected);
  });
});
