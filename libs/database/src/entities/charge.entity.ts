import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, UpdateDateColumn, type Relation } from 'typeorm';
import { MerchantEntity } from './merchant.entity.js';
import { bigintNumber } from './bigint-number.transformer.js';

/** What the business wants: charge this order this amount. Created once; realised by attempts. */
@Entity('charges')
// An order id is the merchant's own: unique per merchant, never a way to find another merchant's charge.
@Unique('UQ_charges_merchant_order_id', ['merchantId', 'orderId'])
// Finance looks a charge up by order or customer across merchants (migration 1764680270000).
@Index('ix_charges_order_id', ['orderId'])
@Index('ix_charges_customer_id', ['customerId'])
// The merchant lists' pages (MerchantListStatuses), newest first by a backward scan.
@Index('ix_charges_merchant_page', ['merchantId', 'createdAt', 'id'])
@Index('ix_charges_merchant_customer_page', ['merchantId', 'customerId', 'createdAt', 'id'])
@Check('charges_amount_cents_check', `amount_cents > 0`)
@Check('charges_currency_check', `currency ~ '^[a-z]{3}$'`)
@Check('charges_refunded_cents_check', `refunded_cents >= 0`)
@Check('charges_billing_type_check', `billing_type IN ('PIX','BOLETO','CREDIT_CARD')`)
@Check('charges_refund_committed_cents_check', `refund_committed_cents >= 0 AND refund_committed_cents <= amount_cents`)
export class ChargeEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'merchant_id' }) merchantId: string;
  @ManyToOne(() => MerchantEntity, { nullable: false })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'charges_merchant_id_fkey' })
  merchant?: Relation<MerchantEntity>;
  @Column('text', { name: 'order_id' }) orderId: string;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('text', { name: 'customer_id' }) customerId: string;
  @Column('text', { name: 'payment_method_id', nullable: true }) paymentMethodId: string | null;
  /** The IP the customer buys from (Asaas `remoteIp`, with a card token). */
  @Column('inet', { name: 'customer_ip', nullable: true }) customerIp: string | null;
  @Column('text') provider: string;
  /** Refunded at the provider, as its events report it (cumulative, so the highest report wins). */
  @Column('bigint', { name: 'refunded_cents', default: 0, transformer: bigintNumber }) refundedCents: number;
  /** What our refunds that are open or succeeded hold of the captured amount; the CHECK caps it at the amount. */
  @Column('bigint', { name: 'refund_committed_cents', default: 0, transformer: bigintNumber }) refundCommittedCents: number;
  /** The provider's dispute status (e.g. needs_response, won, lost), null when never disputed. */
  @Column('text', { name: 'dispute_status', nullable: true }) disputeStatus: string | null;
  /** When the provider's event said `disputeStatus` (null when it carried no time): an older event never moves it. */
  @Column('timestamptz', { name: 'dispute_status_at', nullable: true }) disputeStatusAt: Date | null;
  /** How the customer pays, for providers that need it (Asaas). */
  @Column('text', { name: 'billing_type', nullable: true }) billingType: string | null;
  /** YYYY-MM-DD; null lets the adapter pick today in the business's time zone. */
  @Column('date', { name: 'due_date', nullable: true }) dueDate: string | null;
  /** The token name that created it. */
  @Column('text', { name: 'created_by' }) createdBy: string;
  /** What the provider's statement says was refunded / disputed (written by reconciliation). */
  @Column('bigint', { name: 'provider_refunded_cents', default: 0, transformer: bigintNumber }) providerRefundedCents: number;
  @Column('bigint', { name: 'provider_disputed_cents', default: 0, transformer: bigintNumber }) providerDisputedCents: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
