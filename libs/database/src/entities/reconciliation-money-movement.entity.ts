import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';
import { ReconciliationRunEntity } from './reconciliation-run.entity.js';

/**
 * A refund, refund reversal or dispute line of a provider statement, kept once per provider line id so that re-running a day
 * never counts it twice; a charge's provider refunded/disputed amounts are sums over these.
 */
@Entity('reconciliation_money_movements')
@Index('ix_reconciliation_money_movements_charge', ['chargeId'])
@Index('ix_reconciliation_money_movements_reversal', ['provider', 'reference'], { where: "kind = 'refund_failure'" })
@Check('reconciliation_money_movements_kind_check', `kind IN ('refund','refund_failure','dispute','dispute_reversal')`)
export class ReconciliationMoneyMovementEntity {
  @PrimaryColumn('text') provider: string;
  @PrimaryColumn('text', { name: 'line_id' }) lineId: string;
  @Column('text') kind: 'refund' | 'refund_failure' | 'dispute' | 'dispute_reversal';
  @Column('text', { name: 'provider_charge_id', nullable: true }) providerChargeId: string | null;
  /** A refund's own id, on its refund line and its reversal alike (null for disputes and lines kept before). */
  @Column('text', { nullable: true }) reference: string | null;
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'reconciliation_money_movements_charge_id_fkey' })
  charge?: Relation<ChargeEntity>;
  /** Signed as in the statement: a refund or dispute is negative, a refund's reversal positive. */
  @Column('bigint', { name: 'amount_cents', transformer: bigintNumber }) amountCents: number;
  @Column('text') currency: string;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt: Date;
  @Column('uuid', { name: 'run_id' }) runId: string;
  @ManyToOne(() => ReconciliationRunEntity, { nullable: false })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'reconciliation_money_movements_run_id_fkey' })
  run?: Relation<ReconciliationRunEntity>;
}
