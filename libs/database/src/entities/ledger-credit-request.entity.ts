import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { LedgerAccountEntity } from './ledger-account.entity.js';
import { PayoutEntity } from './payout.entity.js';

export type LedgerCreditRequestState = 'awaiting_second' | 'confirmed';
/** What the second person lets move: a credit, or a payout an admin sends from the account (migration 1764680378000). */
export type LedgerCreditRequestKind = 'credit' | 'payout';

/**
 * A large admin credit, or a large payout an admin sends from a merchant's account, waiting for a second admin;
 * its confirmation writes the ledger's credit or opens the payout (migrations 1764680210000, 1764680378000).
 */
@Entity('ledger_credit_requests')
@Unique('UQ_ledger_credit_requests_account_reference', ['accountId', 'reference'])
@Check('ledger_credit_requests_amount_check', `amount_cents > 0`)
@Check('ledger_credit_requests_state_check', `state IN ('awaiting_second','confirmed')`)
@Check(
  'ledger_credit_requests_kind_check',
  `(kind = 'credit' AND payout IS NULL AND payout_id IS NULL) OR (kind = 'payout' AND payout IS NOT NULL AND (state = 'confirmed') = (payout_id IS NOT NULL))`,
)
@Index('uq_ledger_credit_requests_payout', ['payoutId'], { unique: true, where: `payout_id IS NOT NULL` })
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
  @Column('text', { default: 'credit' }) kind: LedgerCreditRequestKind;
  /** A payout request's Pix payee and description, exactly as the payout will send them. */
  @Column('jsonb', { nullable: true }) payout: { pixKey: string; pixKeyType: string; description: string | null } | null;
  /** The payout the confirmation opened. */
  @Column('uuid', { name: 'payout_id', nullable: true }) payoutId: string | null;
  @ManyToOne(() => PayoutEntity, { nullable: true })
  @JoinColumn({ name: 'payout_id', foreignKeyConstraintName: 'ledger_credit_requests_payout_id_fkey' })
  payoutRow?: Relation<PayoutEntity>;
  /** Why the second admin agreed, in their words: kept beside the confirmation. */
  @Column('text', { name: 'confirm_reason', nullable: true }) confirmReason: string | null;
}
