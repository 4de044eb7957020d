import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, Unique, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';

/** What the business wants: charge this order this amount. Created once; realised by attempts. */
@Entity('charges')
@Unique('UQ_charges_order_id', ['orderId'])
@Check('charges_amount_cents_check', `amount_cents > 0`)
@Check('charges_currency_check', `currency ~ '^[a-z]{3}$'`)
export class ChargeEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text', { name: 'order_id' }) orderId: string;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('text', { name: 'customer_id' }) customerId: string;
  @Column('text', { name: 'payment_method_id', nullable: true }) paymentMethodId: string | null;
  @Column('text') provider: string;
  /** The token name that created it. */
  @Column('text', { name: 'created_by' }) createdBy: string;
  /** What the provider's statement says was refunded / disputed (written by reconciliation). */
  @Column('bigint', { name: 'provider_refunded_cents', default: 0, transformer: bigintNumber }) providerRefundedCents: number;
  @Column('bigint', { name: 'provider_disputed_cents', default: 0, transformer: bigintNumber }) providerDisputedCents: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
