import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, UpdateDateColumn, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { AttemptEntity } from './attempt.entity.js';
import { ChargeEntity } from './charge.entity.js';
import { PayoutEntity } from './payout.entity.js';
import { ReconciliationRunEntity } from './reconciliation-run.entity.js';

export type DivergenceKindColumn =
  | 'provider_only'
  | 'missing_at_provider'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'duplicate_charge'
  | 'duplicate_transfer'
  | 'refund_provider_only'
  | 'refund_missing_at_provider'
  | 'refund_amount_mismatch'
  | 'refund_cancelled_at_provider';

/**
 * A mismatch between the provider's statement and our attempts. One row per (provider, kind, subject),
 * the subject being the provider charge id or refund id (or, for the missing kinds, our attempt id): a re-run updates
 * the same row and leaves its acknowledgement alone.
 */
@Entity('reconciliation_divergences')
@Unique('uq_reconciliation_divergences_subject', ['provider', 'kind', 'subject'])
@Index('ix_reconciliation_divergences_status', ['status', 'kind'])
@Index('ix_reconciliation_divergences_refund_charge', ['chargeId'], { where: "kind IN ('refund_provider_only', 'refund_amount_mismatch')" })
@Check(
  'reconciliation_divergences_kind_check',
  `kind IN ('provider_only','missing_at_provider','amount_mismatch','currency_mismatch','duplicate_charge','duplicate_transfer', 'refund_provider_only','refund_missing_at_provider','refund_amount_mismatch','refund_cancelled_at_provider')`,
)
@Check('reconciliation_divergences_status_check', `status IN ('open','acknowledged')`)
@Check('reconciliation_divergences_owner_check', `charge_id IS NULL OR payout_id IS NULL`)
export class ReconciliationDivergenceEntity {
  @PrimaryColumn('uuid') id: string;
  /** The run that first found it; every run that saw it is in reconciliation_run_divergences. */
  @Column('uuid', { name: 'run_id' }) runId: string;
  @ManyToOne(() => ReconciliationRunEntity, { nullable: false })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'reconciliation_divergences_run_id_fkey' })
  run?: Relation<ReconciliationRunEntity>;
  @Column('text') kind: DivergenceKindColumn;
  @Column('text') provider: string;
  @Column('date') day: string;
  @Column('text') subject: string;
  @Column('text', { name: 'provider_charge_id', nullable: true }) providerChargeId: string | null;
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'reconciliation_divergences_charge_id_fkey' })
  charge?: Relation<ChargeEntity>;
  /** The payout a Pix transfer line concerns (a payout gateway's statement); such a divergence has no charge. */
  @Column('uuid', { name: 'payout_id', nullable: true }) payoutId: string | null;
  @ManyToOne(() => PayoutEntity, { nullable: true })
  @JoinColumn({ name: 'payout_id', foreignKeyConstraintName: 'reconciliation_divergences_payout_id_fkey' })
  payout?: Relation<PayoutEntity>;
  @Column('uuid', { name: 'attempt_id', nullable: true }) attemptId: string | null;
  @ManyToOne(() => AttemptEntity, { nullable: true })
  @JoinColumn({ name: 'attempt_id', foreignKeyConstraintName: 'reconciliation_divergences_attempt_id_fkey' })
  attempt?: Relation<AttemptEntity>;
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('text') currency: string;
  @Column('jsonb') detail: object;
  @Column('text') status: 'open' | 'acknowledged';
  @Column('text', { nullable: true }) note: string | null;
  @Column('text', { name: 'acknowledged_by', nullable: true }) acknowledgedBy: string | null;
  @Column('timestamptz', { name: 'acknowledged_at', nullable: true }) acknowledgedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
