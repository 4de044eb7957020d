import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { LedgerAccountEntity } from './ledger-account.entity.js';

export type PixKeyTypeColumn = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

/**
 * Money out of a ledger account by Pix. Realised by attempts (`attempts` rows with `operation = 'payout'`);
 * the amount is reserved when an attempt opens, debited when it succeeds, released when it fails.
 */
@Entity('payouts')
@Index('ix_payouts_account', ['accountId', 'createdAt'])
@Index('ix_payouts_account_page', ['accountId', 'createdAt', 'id'])
@Check('payouts_amount_cents_check', `amount_cents > 0`)
@Check('payouts_pix_key_type_check', `pix_key_type IN ('cpf','cnpj','email','phone','evp')`)
export class PayoutEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @ManyToOne(() => LedgerAccountEntity, { nullable: false })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'payouts_account_id_fkey' })
  account?: LedgerAccountEntity;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('text') provider: string;
  @Column('text', { name: 'pix_key' }) pixKey: string;
  @Column('text', { name: 'pix_key_type' }) pixKeyType: PixKeyTypeColumn;
  @Column('text', { nullable: true }) description: string | null;
  /** The token name that asked for it. */
  @Column('text', { name: 'created_by' }) createdBy: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
