import type { LedgerEntryEntity, LedgerEntryKind } from '@app/database';

export interface LedgerEntryView {
  id: string;
  accountId: string;
  kind: LedgerEntryKind;
  amountCents: number;
  reference: string;
  availableAfterCents: number;
  reservedAfterCents: number;
  owedAfterCents: number;
  createdBy: string;
  createdAt: string;
}

export interface BalanceView {
  availableCents: number;
  reservedCents: number;
  /** Money that left beyond what was available (a payout executed after it was released): credits repay it first. */
  owedCents: number;
  currency: string;
}

/** What a movement did: `replayed` when the reference had already moved the balance (nothing moved again). */
export interface LedgerMovement {
  entry: LedgerEntryView;
  replayed: boolean;
}

export function toEntryView(entry: LedgerEntryEntity): LedgerEntryView {
  return {
    // A bigint sequence: a string on the wire, so no client ever rounds it.
    id: String(entry.id),
    accountId: entry.accountId,
    kind: entry.kind,
    amountCents: entry.amountCents,
    reference: entry.reference,
    availableAfterCents: entry.availableAfterCents,
    reservedAfterCents: entry.reservedAfterCents,
    owedAfterCents: entry.owedAfterCents,
    createdBy: entry.createdBy,
    createdAt: entry.createdAt.toISOString(),
  };
}
