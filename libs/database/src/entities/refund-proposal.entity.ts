import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';
import { ReconciliationDivergenceEntity } from './reconciliation-divergence.entity.js';

export type RefundProposalState = 'proposed' | 'approved' | 'rejected' | 'executed';

/**
 * Money the provider took that we never meant to keep (a provider-only or second charge): a person approves
 * or rejects giving it back; the refunds module executes approved ones. One per divergence.
 */
@Entity('refund_proposals')
@Unique('uq_refund_proposals_divergence', ['divergenceId'])
@Index('ix_refund_proposals_state', ['state', 'createdAt'])
@Check('refund_proposals_amount_cents_check', `amount_cents > 0`)
@Check('refund_proposals_state_check', `state IN ('proposed','approved','rejected','executed')`)
export class RefundProposalEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'divergence_id' }) divergenceId: string;
  @ManyToOne(() => ReconciliationDivergenceEntity, { nullable: false })
  @JoinColumn({ name: 'divergence_id', foreignKeyConstraintName: 'refund_proposals_divergence_id_fkey' })
  divergence?: ReconciliationDivergenceEntity;
  @Column('text') provider: string;
  @Column('text', { name: 'provider_charge_id' }) providerChargeId: string;
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'refund_proposals_charge_id_fkey' })
  charge?: ChargeEntity;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('text') currency: string;
  @Column('text') reason: string;
  @Column('text') state: RefundProposalState;
  @Column('text', { name: 'decided_by', nullable: true }) decidedBy: string | null;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt: Date | null;
  @Column('text', { name: 'decision_note', nullable: true }) decisionNote: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
