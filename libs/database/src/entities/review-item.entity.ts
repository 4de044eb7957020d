import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { AttemptEntity } from './attempt.entity.js';

/** open → claimed (one reviewer, expires) → closed, or → awaiting_second (four-eyes) → closed | open. */
export type ReviewItemState = 'open' | 'claimed' | 'awaiting_second' | 'closed';
export type ReviewDecisionAction = 'succeeded' | 'failed' | 'acknowledge';
/**
 * What a person does after acknowledging a terminal attempt. `keep_capture` / `refund_capture` answer a capture
 * the provider made after we had failed the attempt (the order is fulfilled, or the capture refunded through the
 * charge's own refund path); `refund_needed` names another provider charge to give back (a refund proposal).
 */
export const REVIEW_FOLLOW_UPS = ['refund_needed', 'no_action', 'recorded_externally', 'keep_capture', 'refund_capture'] as const;
export type ReviewFollowUp = (typeof REVIEW_FOLLOW_UPS)[number];

/** An attempt (or an unreconciled day) a person must decide, with everything known about it and, later, the decision. */
@Entity('review_items')
@Index('uq_review_items_open_per_attempt', ['attemptId'], { unique: true, where: `state <> 'closed'` })
@Index('ix_review_items_state', ['state', 'createdAt'])
@Index('ix_review_items_decision_provider_charge_id', ['decisionProviderChargeId'], { where: `decision_provider_charge_id IS NOT NULL` })
@Index('ix_review_items_refund_needed', ['closedAt'], { where: `follow_up = 'refund_needed'` })
@Check('review_items_state_check', `state IN ('open','claimed','awaiting_second','closed')`)
@Check('review_items_decision_check', `decision IN ('succeeded','failed','acknowledge')`)
@Check('review_items_follow_up_check', `follow_up IN ('refund_needed','no_action','recorded_externally','keep_capture','refund_capture')`)
@Check('review_items_claim_check', `state <> 'claimed' OR (claimed_by IS NOT NULL AND claim_expires_at IS NOT NULL)`)
@Check('review_items_awaiting_second_check', `state <> 'awaiting_second' OR (decision IN ('succeeded','failed') AND decided_by IS NOT NULL)`)
@Check('review_items_four_eyes_check', `confirmed_by IS NULL OR confirmed_by <> decided_by`)
// An item is about an attempt, or about a provider's day that was never reconciled: exactly one of them.
@Check(
  'review_items_subject_check',
  `(attempt_id IS NOT NULL AND gap_provider IS NULL AND gap_day IS NULL AND reason <> 'reconciliation_gap')
            OR (attempt_id IS NULL AND gap_provider IS NOT NULL AND gap_day IS NOT NULL AND reason = 'reconciliation_gap')`,
)
@Index('uq_review_items_gap', ['gapProvider', 'gapDay'], { unique: true, where: `gap_day IS NOT NULL` })
export class ReviewItemEntity {
  @PrimaryColumn('uuid') id: string;
  /** Null only for a `reconciliation_gap` item, which is about `gapProvider`'s `gapDay` instead. */
  @Column('uuid', { name: 'attempt_id', nullable: true }) attemptId: string | null;
  @ManyToOne(() => AttemptEntity, { nullable: true })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'review_items_attempt_id_fkey' })
  attempt?: Relation<AttemptEntity>;
  @Column('text', { name: 'gap_provider', nullable: true }) gapProvider: string | null;
  /** 'YYYY-MM-DD' in RECONCILIATION_TZ: the day that left the catch-up window with no succeeded run. */
  @Column('date', { name: 'gap_day', nullable: true }) gapDay: string | null;
  @Column('text') reason: string;
  @Column('jsonb') evidence: object;
  @Column('text') state: ReviewItemState;
  @Column('text', { name: 'claimed_by', nullable: true }) claimedBy: string | null;
  @Column('timestamptz', { name: 'claimed_at', nullable: true }) claimedAt: Date | null;
  /** A claim past this time is abandoned: the item is back in the queue for anyone. */
  @Column('timestamptz', { name: 'claim_expires_at', nullable: true }) claimExpiresAt: Date | null;
  @Column('text', { nullable: true }) decision: ReviewDecisionAction | null;
  @Column('text', { name: 'decision_reason', nullable: true }) decisionReason: string | null;
  @Column('text', { name: 'decision_provider_charge_id', nullable: true }) decisionProviderChargeId: string | null;
  /** For `acknowledge`: what happens next outside this service (`refund_needed` feeds the refunds work). */
  @Column('text', { name: 'follow_up', nullable: true }) followUp: ReviewFollowUp | null;
  /** The first pair of eyes. */
  @Column('text', { name: 'decided_by', nullable: true }) decidedBy: string | null;
  @Column('timestamptz', { name: 'decided_at', nullable: true }) decidedAt: Date | null;
  /** The second pair of eyes, above the four-eyes threshold; never the same name as `decided_by`. */
  @Column('text', { name: 'confirmed_by', nullable: true }) confirmedBy: string | null;
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt: Date | null;
  @Column('timestamptz', { name: 'closed_at', nullable: true }) closedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
