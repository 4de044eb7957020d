import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { LedgerAccountEntity } from './ledger-account.entity.js';

export type LedgerEntryKind = 'credit' | 'reserve' | 'release' | 'debit' | 'late_debit';

/**
 * One balance movement, append-only (a trigger refuses UPDATE and DELETE). The unique (account, kind, reference)
 * makes each movement happen once; the partial index lets a reservation be settled (released or debited) once.
 */
@Entity('ledger_entries')
@Unique('UQ_ledger_entries_account_kind_reference', ['accountId', 'kind', 'reference'])
@Index('uq_ledger_entries_one_settlement', ['accountId', 'reference'], { unique: true, where: `kind IN ('release','debit')` })
@Check('ledger_entries_kind_check', `kind IN ('credit','reserve','release','debit','late_debit')`)
@Check('ledger_entries_amount_cents_check', `amount_cents > 0`)
export class LedgerEntryEntity {
  /** A sequence: the keyset cursor of the entries listing. */
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @ManyToOne(() => LedgerAccountEntity, { nullable: false })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'ledger_entries_account_id_fkey' })
  account?: Relation<LedgerAccountEntity>;
  @Column('text') kind: LedgerEntryKind;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  /** What the movement is for (a funding reference, a payout attempt id): its exactly-once key. */
  @Column('text') reference: string;
  /** The account's balance right after this entry: an audit trail that needs no replay to read. */
  @Column('bigint', { name: 'available_after_cents', transformer: bigintNumber }) availableAfterCents: number;
  @Column('bigint', { name: 'reserved_after_cents', transformer: bigintNumber }) reservedAfterCents: number;
  @Column('bigint', { name: 'owed_after_cents', default: 0, transformer: bigintNumber }) owedAfterCents: number;
  @Column('text', { name: 'created_by' }) createdBy: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
