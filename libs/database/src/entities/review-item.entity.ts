import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ChargeAttemptEntity } from './charge-attempt.entity.js';

export type ReviewItemState = 'open' | 'claimed' | 'decided';

/** An attempt a person must decide, with everything known about it and, later, the decision. */
@Entity('review_items')
@Index('uq_review_items_open_per_attempt', ['attemptId'], { unique: true, where: `state <> 'decided'` })
@Index('ix_review_items_state', ['state', 'createdAt'])
@Check('review_items_state_check', `state IN ('open','claimed','decided')`)
@Check('review_items_decision_check', `decision IN ('succeeded','failed')`)
export class ReviewItemEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'attempt_id' }) attemptId: string;
  @ManyToOne(() => ChargeAttemptEntity, { nullable: false })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'review_items_attempt_id_fkey' })
  attempt?: ChargeAttemptEntity;
  @Column('text') reason: string;
  @Column('jsonb') evidence: object;
  @Column('text') state: ReviewItemState;
  @Column('text', { name: 'claimed_by', nullable: true }) claimedBy: string | null;
  @Column('timestamptz', { name: 'claimed_at', nullable: true }) claimedAt: Date | null;
  @Column('text', { nullable: true }) decision: 'succeeded' | 'failed' | null;
  @Column('text', { name: 'decision_reason', nullable: true }) decisionReason: string | null;
  @Column('text', { name: 'decision_provider_charge_id', nullable: true }) decisionProviderChargeId: string | null;
  @Column('text', { name: 'decided_by', nullable: true }) decidedBy: string | null;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
