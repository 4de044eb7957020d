import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity.js';
import { bigintNumber } from './bigint-number.transformer.js';
import { MerchantEntity } from './merchant.entity.js';

/**
 * A merchant's balance for money going out. The running balance lives on this row so that one row lock decides
 * every movement; the CHECK is the last word on "never negative", whatever the code above it does.
 */
@Entity('ledger_accounts')
@Index('ix_ledger_accounts_owner', ['ownerTokenName', 'createdAt'])
@Index('ix_ledger_accounts_merchant', ['merchantId', 'createdAt'])
@Check('ledger_accounts_currency_check', `currency ~ '^[a-z]{3}$'`)
@Check('ledger_accounts_balance_check', `available_cents >= 0 AND reserved_cents >= 0`)
@Check('ledger_accounts_owed_check', `owed_cents >= 0`)
export class LedgerAccountEntity {
  @PrimaryColumn('uuid') id: string;
  /** The merchant token (by name) that may see and spend this account. */
  @Column('text', { name: 'owner_token_name' }) ownerTokenName: string;
  @ManyToOne(() => ApiTokenEntity, { nullable: false })
  @JoinColumn({ name: 'owner_token_name', referencedColumnName: 'name', foreignKeyConstraintName: 'ledger_accounts_owner_token_name_fkey' })
  owner?: Relation<ApiTokenEntity>;
  /** The merchant whose money this is: every merchant route reads the account through it. */
  @Column('uuid', { name: 'merchant_id' }) merchantId: string;
  @ManyToOne(() => MerchantEntity, { nullable: false })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'ledger_accounts_merchant_id_fkey' })
  merchant?: Relation<MerchantEntity>;
  @Column('char', { length: 3 }) currency: string;
  @Column('bigint', { name: 'available_cents', default: 0, transformer: bigintNumber }) availableCents: number;
  @Column('bigint', { name: 'reserved_cents', default: 0, transformer: bigintNumber }) reservedCents: number;
  /** Money that left beyond what was available (a Pix executed after its payout was released): credits repay it first. */
  @Column('bigint', { name: 'owed_cents', default: 0, transformer: bigintNumber }) owedCents: number;
  @Column('text', { name: 'created_by' }) createdBy: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
