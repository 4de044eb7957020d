import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { LedgerAccountEntity } from './ledger-account.entity.js';

export type LedgerCreditRequestState = 'awaiting_second' | 'confirmed';

/** A large admin credit waiting for a second admin; its confirmation writes the ledger's credit (migration 1764680210000). */
@Entity('ledger_credit_requests')
@Unique('UQ_ledger_credit_requests_account_reference', ['accountId', 'reference'])
@Check('ledger_credit_requests_amount_check', `amount_cents > 0`)
@Check('ledger_credit_requests_state_check', `state IN ('awaiting_second','confirmed')`)
@Check('ledger_credit_requests_four_eyes_check', `(state = 'confirmed') = (confirmed_by IS NOT NULL) AND (confirmed_by IS NULL OR confirmed_by <> requested_by)`)
export class LedgerCreditRequestEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @ManyToOne(() => LedgerAccountEntity, { nullable: false })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'ledger_credit_requests_account_id_fkey' })
  account?: Relation<LedgerAccountEntity>;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('text') reference: string;
  @Column('text', { name: 'requested_by' }) requestedBy: string;
  @Column('timestamptz', { name: 'requested_at', default: () => 'now()' }) requestedAt: Date;
  @Column('text') state: LedgerCreditRequestState;
  @Column('text', { name: 'confirmed_by', nullable: true }) confirmedBy: string | null;
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt: Date | null;
  /** Why the second admin agreed, in their words: kept beside the confirmation. */
  @Column('text', { name: 'confirm_reason', nullable: true }) confirmReason: string | null;
}
