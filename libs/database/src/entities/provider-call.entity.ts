import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { AttemptEntity } from './attempt.entity.js';

/** Evidence: every call made to a provider for an attempt and what it proved. Shown to reviewers. */
@Entity('provider_calls')
@Index('ix_provider_calls_attempt', ['attemptId', 'at'])
export class ProviderCallEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' }) id: string;
  @Column('uuid', { name: 'attempt_id' }) attemptId: string;
  @ManyToOne(() => AttemptEntity, { nullable: false })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'provider_calls_attempt_id_fkey' })
  attempt?: Relation<AttemptEntity>;
  /** `create` or `lookup`. */
  @Column('text') kind: string;
  @Column('text') outcome: string;
  @Column('int', { name: 'http_status', nullable: true }) httpStatus: number | null;
  @Column('int', { name: 'duration_ms' }) durationMs: number;
  @Column('jsonb', { nullable: true }) detail: object | null;
  @CreateDateColumn({ type: 'timestamptz' }) at: Date;
}
