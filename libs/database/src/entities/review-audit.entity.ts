import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { ReviewItemEntity } from './review-item.entity.js';

export type ReviewAuditAction = 'claim' | 'release' | 'decide' | 'confirm' | 'reject' | 'escalate' | 'reopen';

/**
 * Who did what to a review item, when, why, and on which provider evidence. Append-only: a database
 * trigger (migration 1764680020000) refuses UPDATE, DELETE and TRUNCATE.
 */
@Entity('review_audit')
@Index('ix_review_audit_item', ['reviewItemId', 'id'])
@Check('review_audit_action_check', `action IN ('claim','release','decide','confirm','reject','escalate','reopen')`)
export class ReviewAuditEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' }) id: string;
  @Column('uuid', { name: 'review_item_id' }) reviewItemId: string;
  @ManyToOne(() => ReviewItemEntity, { nullable: false })
  @JoinColumn({ name: 'review_item_id', foreignKeyConstraintName: 'review_audit_review_item_id_fkey' })
  reviewItem?: Relation<ReviewItemEntity>;
  @Column('text') actor: string;
  @Column('text') action: ReviewAuditAction;
  @Column('text', { nullable: true }) decision: string | null;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('text', { name: 'state_before' }) stateBefore: string;
  @Column('text', { name: 'state_after' }) stateAfter: string;
  @Column('jsonb', { nullable: true }) evidence: object | null;
  @CreateDateColumn({ type: 'timestamptz' }) at: Date;
}
