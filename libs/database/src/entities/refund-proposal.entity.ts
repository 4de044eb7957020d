import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation, Unique, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';
import { ReconciliationDivergenceEntity } from './reconciliation-divergence.entity.js';
import { RefundEntity } from './refund.entity.js';
import { ReviewItemEntity } from './review-item.entity.js';

/** `awaiting_second`: a large proposal approved once, waiting for a second admin to execute it. */
export type RefundProposalState = 'proposed' | 'awaiting_second' | 'rejected' | 'executed';

/**
 * Money the provider took that we never meant to keep (a provider-only or second charge): a person approves
 * or rejects giving it back; the refunds module executes approved ones. One per divergence.
 */
@Entity('refund_proposals')
@Unique('uq_refund_proposals_divergence', ['divergenceId'])
@Index('ix_refund_proposals_state', ['state', 'createdAt'])
@Check('refund_proposals_amount_cents_check', `amount_cents > 0`)
@Check('refund_proposals_state_check', `state IN ('proposed','awaiting_second','rejected','executed')`)
@Check(
  'refund_proposals_second_person_check',
  `(state = 'awaiting_second') <= (approved_by IS NOT NULL) AND (approved_by IS NULL OR (approved_by <> proposed_by AND (decided_by IS NULL OR state = 'rejected' OR decided_by <> approved_by)))`,
)
@Unique('uq_refund_proposals_review_item', ['reviewItemId'])
@Check('refund_proposals_source_check', `(divergence_id IS NULL) <> (review_item_id IS NULL)`)
@Check('refund_proposals_refund_id_check', `(state = 'executed') = (refund_id IS NOT NULL)`)
@Check('refund_proposals_four_eyes_check', `decided_by IS NULL OR state = 'rejected' OR decided_by <> proposed_by`)
export class RefundProposalEntity {
  @PrimaryColumn('uuid') id: string;
  /** Where it comes from: a reconciliation divergence, or (exactly one of the two) a review item acknowledged with refund_needed. */
  @Column('uuid', { name: 'divergence_id', nullable: true }) divergenceId: string | null;
  @ManyToOne(() => ReconciliationDivergenceEntity, { nullable: true })
  @JoinColumn({ name: 'divergence_id', foreignKeyConstraintName: 'refund_proposals_divergence_id_fkey' })
  divergence?: Relation<ReconciliationDivergenceEntity>;
  @Column('text') provider: string;
  @Column('text', { name: 'provider_charge_id' }) providerChargeId: string;
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'refund_proposals_charge_id_fkey' })
  charge?: Relation<ChargeEntity>;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('text') currency: string;
  @Column('uuid', { name: 'review_item_id', nullable: true }) reviewItemId: string | null;
  @ManyToOne(() => ReviewItemEntity, { nullable: true })
  @JoinColumn({ name: 'review_item_id', foreignKeyConstraintName: 'refund_proposals_review_item_id_fkey' })
  reviewItem?: Relation<ReviewItemEntity>;
  @Column('text') reason: string;
  /** Who proposed it: the person who acknowledged a review item with refund_needed, or `reconciliation`. */
  @Column('text', { name: 'proposed_by', default: 'reconciliation' }) proposedBy: string;
  @Column('text') state: RefundProposalState;
  /** The first admin of a large proposal's two (it then awaits a second, who executes it). */
  @Column('text', { name: 'approved_by', nullable: true }) approvedBy: string | null;
  @Column('timestamptz', { name: 'approved_at', nullable: true }) approvedAt: Date | null;
  @Column('text', { name: 'decided_by', nullable: true }) decidedBy: string | null;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt: Date | null;
  @Column('text', { name: 'decision_note', nullable: true }) decisionNote: string | null;
  /** The refund that executed it, once approved: set in the same transaction that creates the refund. */
  @Column('uuid', { name: 'refund_id', nullable: true }) refundId: string | null;
  @ManyToOne(() => RefundEntity, { nullable: true })
  @JoinColumn({ name: 'refund_id', foreignKeyConstraintName: 'refund_proposals_refund_id_fkey' })
  refund?: Relation<RefundEntity>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
