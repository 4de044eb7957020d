import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';
import { MerchantEntity } from './merchant.entity.js';
import { RefundProposalEntity } from './refund-proposal.entity.js';

/**
 * Money going back for part or all of a succeeded charge. Realised by attempts (`attempts` rows with
 * `operation = 'refund'`); its amount is committed on the charge row when it is created and released once,
 * when its attempt is finally failed (`released_at`).
 */
@Entity('refunds')
@Index('ix_refunds_charge', ['chargeId', 'createdAt'])
@Index('ix_refunds_merchant_page', ['merchantId', 'createdAt', 'id'], { where: `"merchant_id" IS NOT NULL` })
@Index('ix_refunds_charge_page', ['chargeId', 'createdAt', 'id'], { where: `"charge_id" IS NOT NULL` })
@Index('uq_refunds_proposal', ['proposalId'], { unique: true, where: `"proposal_id" IS NOT NULL` })
@Index('uq_refunds_proposal_provider_charge', ['providerChargeId'], { unique: true, where: `"charge_id" IS NULL` })
@Check('refunds_amount_cents_check', `amount_cents > 0`)
@Check('refunds_merchant_check', `(charge_id IS NULL) = (merchant_id IS NULL)`)
@Check(
  'refunds_target_check',
  `(charge_id IS NOT NULL AND provider_charge_id IS NULL AND proposal_id IS NULL) OR (charge_id IS NULL AND provider_charge_id IS NOT NULL AND proposal_id IS NOT NULL)`,
)
export class RefundEntity {
  @PrimaryColumn('uuid') id: string;
  /** The charge of ours it refunds; null for an executed refund proposal, which names a provider charge instead. */
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'refunds_charge_id_fkey' })
  charge?: Relation<ChargeEntity>;
  /** The charge's merchant; null exactly when there is no charge (an executed proposal, an admin's own). */
  @Column('uuid', { name: 'merchant_id', nullable: true }) merchantId: string | null;
  @ManyToOne(() => MerchantEntity, { nullable: true })
  @JoinColumn({ name: 'merchant_id', foreignKeyConstraintName: 'refunds_merchant_id_fkey' })
  merchant?: Relation<MerchantEntity>;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('text', { nullable: true }) reason: string | null;
  /** The token name that asked for it. */
  @Column('text', { name: 'created_by' }) createdBy: string;
  /**
   * For an executed refund proposal: the provider charge it returns money from (a provider-only charge, or a
   * second charge for one of ours), which is not our charge's success.
   */
  @Column('text', { name: 'provider_charge_id', nullable: true }) providerChargeId: string | null;
  /** The refund proposal (reconciliation, review) this refund executes, if any; unique, so it executes once. */
  @Column('uuid', { name: 'proposal_id', nullable: true }) proposalId: string | null;
  @ManyToOne(() => RefundProposalEntity, { nullable: true })
  @JoinColumn({ name: 'proposal_id', foreignKeyConstraintName: 'refunds_proposal_id_fkey' })
  proposal?: Relation<RefundProposalEntity>;
  /** Set when its attempt was finally failed and its amount given back to the charge's refundable amount. */
  @Column('timestamptz', { name: 'released_at', nullable: true }) releasedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
