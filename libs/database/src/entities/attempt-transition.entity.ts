import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Audit trail: every status change of an attempt, who caused it and why. Append-only. */
@Entity('attempt_transitions')
@Index('ix_attempt_transitions_attempt', ['attemptId', 'at'])
export class AttemptTransitionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' }) id: string;
  @Column('uuid', { name: 'attempt_id' }) attemptId: string;
  @Column('text', { name: 'from_status', nullable: true }) fromStatus: string | null;
  @Column('text', { name: 'to_status' }) toStatus: string;
  @Column('text') cause: string;
  @Column('text') actor: string;
  @Column('jsonb', { nullable: true }) detail: object | null;
  @CreateDateColumn({ type: 'timestamptz' }) at: Date;
}
