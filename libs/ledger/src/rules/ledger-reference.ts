import type { LedgerMovementKind } from './ledger-movement.js';

/** What an account already holds under one reference. */
export interface ReferenceHistory {
  kind: LedgerMovementKind;
  amountCents: number;
}

export type ReferenceDecision =
  /** Nothing yet under this reference for this kind: apply it, for this amount. */
  | { action: 'apply'; amountCents: number }
  /** Already applied: a repeat returns the entry, the balance does not move again. */
  | { action: 'replay' }
  | { action: 'refuse'; reason: 'amount_differs' | 'no_reservation' | 'settled_otherwise' | 'not_released' };

/**
 * Exactly once per reference. A credit or reserve repeated with the same amount is a replay, with another amount
 * a reused reference. A release or debit settles the reservation of the same reference, for its whole amount,
 * and a reservation is settled one way only: released (the payout failed) or debited (it succeeded). A late debit
 * is money that left after its reservation was released: once, and only after a release.
 */
export function decideForReference(kind: LedgerMovementKind, requestedCents: number | null, history: readonly ReferenceHistory[]): ReferenceDecision {
  const same = history.find((entry) => entry.kind === kind);
  if (kind === 'credit' || kind === 'reserve') {
    if (!same) return { action: 'apply', amountCents: requestedCents ?? 0 };
    return same.amountCents === requestedCents ? { action: 'replay' } : { action: 'refuse', reason: 'amount_differs' };
  }
  if (kind === 'late_debit') return decideLateDebit(requestedCents ?? 0, same, history);
  if (same) return { action: 'replay' };
  const other = kind === 'release' ? 'debit' : 'release';
  if (history.some((entry) => entry.kind === other)) return { action: 'refuse', reason: 'settled_otherwise' };
  const reservation = history.find((entry) => entry.kind === 'reserve');
  return reservation ? { action: 'apply', amountCents: reservation.amountCents } : { action: 'refuse', reason: 'no_reservation' };
}

function decideLateDebit(requestedCents: number, same: ReferenceHistory | undefined, history: readonly ReferenceHistory[]): ReferenceDecision {
  if (same) return same.amountCents === requestedCents ? { action: 'replay' } : { action: 'refuse', reason: 'amount_differs' };
  if (history.some((entry) => entry.kind === 'release')) return { action: 'apply', amountCents: requestedCents };
  // A debited reservation already took this money; one still held is not a failed payout.
  return history.some((entry) => entry.kind === 'debit') ? { action: 'refuse', reason: 'settled_otherwise' } : { action: 'refuse', reason: 'not_released' };
}
