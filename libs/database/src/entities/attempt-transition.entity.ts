import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { AttemptEntity } from './attempt.entity.js';

/** Audit trail: every status change of an attempt, who caused it and why. Append-only. */
@Entity('attempt_transitions')
@Index('ix_attempt_transitions_attempt', ['attemptId', 'at'])
// Time to certainty reads the last hours of transitions out of `unknown`.
@Index('ix_attempt_transitions_left_unknown', ['at'], { where: `from_status = 'unknown'` })
@Check('attempt_transitions_cause_check', `cause IN ('submit','resolver','webhook','reviewer','reconciliation','sweeper')`)
export class AttemptTransitionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' }) id: string;
  @Column('uuid', { name: 'attempt_id' }) attemptId: string;
  @ManyToOne(() => AttemptEntity, { nullable: false })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'attempt_transitions_attempt_id_fkey' })
  attempt?: Relation<AttemptEntity>;
  @Column('text', { name: 'from_status', nullable: true }) fromStatus: string | null;
  @Column('text', { name: 'to_status' }) toStatus: string;
  @Column('text') cause: string;
  @Column('text') actor: string;
  @Column('jsonb', { nullable: true }) detail: object | null;
  @CreateDateColumn({ type: 'timestamptz' }) at: Date;
}
