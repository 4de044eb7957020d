import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';

/**
 * Money going back for part or all of a succeeded charge. Realised by attempts (`charge_attempts` rows with
 * `operation = 'refund'`); its amount is committed on the charge row when it is created and released once,
 * when its attempt is finally failed (`released_at`).
 */
@Entity('refunds')
@Index('ix_refunds_charge', ['chargeId', 'createdAt'])
@Index('uq_refunds_proposal', ['proposalId'], { unique: true, where: `"proposal_id" IS NOT NULL` })
@Check('refunds_amount_cents_check', `amount_cents > 0`)
export class RefundEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'charge_id' }) chargeId: string;
  @ManyToOne(() => ChargeEntity, { nullable: false })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'refunds_charge_id_fkey' })
  charge?: ChargeEntity;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('text', { nullable: true }) reason: string | null;
  /** The token name that asked for it. */
  @Column('text', { name: 'created_by' }) createdBy: string;
  /** The refund proposal (reconciliation, review) this refund executes, if any; unique, so it executes once. */
  @Column('uuid', { name: 'proposal_id', nullable: true }) proposalId: string | null;
  /** Set when its attempt was finally failed and its amount given back to the charge's refundable amount. */
  @Column('timestamptz', { name: 'released_at', nullable: true }) releasedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
