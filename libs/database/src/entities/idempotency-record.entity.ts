import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An inbound `Idempotency-Key` on our own API, scoped to the calling token. */
@Entity('idempotency_records')
@Check('idempotency_records_state_check', `state IN ('in_flight','completed')`)
export class IdempotencyRecordEntity {
  @PrimaryColumn('text') scope: string;
  @PrimaryColumn('text') key: string;
  @Column('char', { name: 'request_hash', length: 64 }) requestHash: string;
  /** `in_flight` until the first request finished; then its response is replayed. */
  @Column('text') state: 'in_flight' | 'completed';
  @Column('int', { name: 'response_status', nullable: true }) responseStatus: number | null;
  @Column('jsonb', { name: 'response_body', nullable: true }) responseBody: unknown;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
