import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { AttemptEntity } from './attempt.entity.js';

/** Every provider event received, once per provider event id; kept as evidence whatever it did. */
@Entity('webhook_events')
@Unique('uq_webhook_events_provider_event', ['provider', 'eventId'])
@Index('ix_webhook_events_attempt', ['attemptId'])
@Index('ix_webhook_events_unmatched', ['receivedAt'], { where: `disposition = 'unmatched'` })
export class WebhookEventEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') provider: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') type: string;
  @Column('uuid', { name: 'attempt_id', nullable: true }) attemptId: string | null;
  @ManyToOne(() => AttemptEntity, { nullable: true })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'webhook_events_attempt_id_fkey' })
  attempt?: Relation<AttemptEntity>;
  @Column('text', { name: 'provider_charge_id', nullable: true }) providerChargeId: string | null;
  /** applied | no_change | flagged | unmatched */
  @Column('text') disposition: string;
  @Column('jsonb', { nullable: true }) detail: object | null;
  @Column('jsonb') payload: object;
  @Column('timestamptz', { name: 'received_at', default: () => 'now()' }) receivedAt: Date;
}
