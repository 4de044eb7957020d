import { ApiProperty } from '@nestjs/swagger';

/** Swagger shapes of the ledger's responses (the services return plain objects of the same shape). */
export class BalanceViewDoc {
  @ApiProperty({ example: 90000 }) availableCents: number;
  @ApiProperty({ description: 'held by payouts whose outcome is not final yet', example: 10000 }) reservedCents: number;
  @ApiProperty({ description: 'sent beyond what was available (a payout executed after it was released); credits repay it first, and no payout goes out while it is above 0', example: 0 }) owedCents: number;
  @ApiProperty({ example: 'brl' }) currency: string;
}

export class AccountViewDoc extends BalanceViewDoc {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() ownerTokenName: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class LedgerEntryViewDoc {
  @ApiProperty({ description: 'sequence number, as a string' }) id: string;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({ enum: ['credit', 'reserve', 'release', 'debit', 'late_debit'] }) kind: string;
  @ApiProperty() amountCents: number;
  @ApiProperty() reference: string;
  @ApiProperty() availableAfterCents: number;
  @ApiProperty() reservedAfterCents: number;
  @ApiProperty() owedAfterCents: number;
  @ApiProperty() createdBy: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class EntriesPageDoc {
  @ApiProperty({ type: [LedgerEntryViewDoc] }) entries: LedgerEntryViewDoc[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `after` for the next page' }) nextCursor: string | null;
}

export class CreditViewDoc {
  @ApiProperty({ type: LedgerEntryViewDoc }) entry: LedgerEntryViewDoc;
  @ApiProperty({ description: 'true when this reference had already credited the account: no money was added again' }) replayed: boolean;
  @ApiProperty({ type: BalanceViewDoc }) balance: BalanceViewDoc;
}

export class CreditRequestDoc {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty() reference: string;
  @ApiProperty({ description: 'the admin (person) who asked' }) requestedBy: string;
  @ApiProperty({ enum: ['awaiting_second', 'confirmed'] }) state: string;
  @ApiProperty({ type: String, nullable: true }) confirmedBy: string | null;
}

export class CreditRequestViewDoc {
  @ApiProperty({ type: CreditRequestDoc }) request: CreditRequestDoc;
  @ApiProperty({ type: BalanceViewDoc, description: 'unchanged: nothing moves until another admin confirms' }) balance: BalanceViewDoc;
}
