import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, UpdateDateColumn, type Relation } from 'typeorm';
import { bigintNumber } from './bigint-number.transformer.js';
import { ChargeEntity } from './charge.entity.js';
import { PayoutEntity } from './payout.entity.js';
import { RefundEntity } from './refund.entity.js';

export type AttemptStatusColumn = 'pending' | 'succeeded' | 'failed' | 'unknown';
/** What an attempt realises: a charge, a refund of one, or a payout from a ledger account. */
export type AttemptOperationColumn = 'charge' | 'refund' | 'payout';

/**
 * One effort to realise an operation (a charge, a refund or a payout) at one provider with its own idempotency
 * key. The partial unique indexes are the only thing that guarantees one open attempt per owner across processes.
 */
@Entity('attempts')
@Unique('UQ_attempts_idempotency_key', ['idempotencyKey'])
@Unique('UQ_attempts_provider_ref', ['providerRef'])
@Index('uq_attempts_open_per_charge', ['chargeId'], { unique: true, where: `"status" IN ('pending','unknown') AND "operation" = 'charge'` })
// One success-bearing attempt per charge: a success, or a failed attempt the provider captured late.
@Index('uq_attempts_one_capture_per_charge', ['chargeId'], { unique: true, where: `"operation" = 'charge' AND ("status" = 'succeeded' OR "late_captured_at" IS NOT NULL)` })
@Index('uq_attempts_late_capture_provider_charge_id', ['lateCaptureProviderChargeId'], { unique: true, where: `"late_capture_provider_charge_id" IS NOT NULL` })
@Index('uq_attempts_late_execution_end_to_end_id', ['provider', 'lateExecutionEndToEndId'], { unique: true, where: `"late_execution_end_to_end_id" IS NOT NULL` })
@Index('uq_attempts_late_refund_provider_ref', ['provider', 'lateRefundProviderRef'], { unique: true, where: `"late_refund_provider_ref" IS NOT NULL` })
@Index('uq_attempts_open_per_refund', ['refundId'], { unique: true, where: `"status" IN ('pending','unknown') AND "operation" = 'refund'` })
@Index('uq_attempts_one_success_per_refund', ['refundId'], { unique: true, where: `"status" = 'succeeded' AND "operation" = 'refund'` })
@Index('uq_attempts_open_per_payout', ['payoutId'], { unique: true, where: `"status" IN ('pending','unknown') AND "operation" = 'payout'` })
@Index('uq_attempts_one_success_per_payout', ['payoutId'], { unique: true, where: `"status" = 'succeeded' AND "operation" = 'payout'` })
@Index('ix_attempts_payout', ['payoutId', 'createdAt'], { where: `payout_id IS NOT NULL` })
@Index('ix_attempts_charge', ['chargeId', 'createdAt'])
@Index('ix_attempts_open', ['status', 'updatedAt'], { where: `status IN ('pending','unknown')` })
@Index('ix_attempts_succeeded_created', ['provider', 'createdAt'], { where: `status = 'succeeded'` })
@Check('attempts_status_check', `status IN ('pending','succeeded','failed','unknown')`)
@Check('attempts_operation_check', `operation IN ('charge','refund','payout')`)
@Check('attempts_owner_check', `(operation = 'charge' AND charge_id IS NOT NULL AND payout_id IS NULL) OR (operation = 'refund' AND payout_id IS NULL) OR (operation = 'payout' AND payout_id IS NOT NULL AND charge_id IS NULL)`)
@Check(
  'attempts_late_capture_check',
  `(late_captured_at IS NULL AND late_capture_provider_charge_id IS NULL) OR (late_captured_at IS NOT NULL AND late_capture_provider_charge_id IS NOT NULL AND status = 'failed' AND operation = 'charge')`,
)
@Check(
  'attempts_late_execution_check',
  `(late_executed_at IS NULL) = (late_execution_end_to_end_id IS NULL) AND (late_executed_at IS NULL OR (status = 'failed' AND operation = 'payout'))`,
)
@Check(
  'attempts_late_refund_check',
  `(late_refunded_at IS NULL) = (late_refund_provider_ref IS NULL) AND (late_refunded_at IS NULL OR (status = 'failed' AND operation = 'refund'))`,
)
@Check(
  'attempts_late_refund_amount_check',
  `(late_refunded_at IS NULL) = (late_refund_amount_cents IS NULL) AND (late_refund_amount_cents IS NULL OR late_refund_amount_cents > 0)`,
)
@Check('attempts_awaiting_payment_check', `awaiting_payment_until IS NULL OR (operation = 'charge' AND provider_ref IS NOT NULL)`)
@Check('attempts_refund_id_check', `(operation = 'refund' AND refund_id IS NOT NULL) OR (operation <> 'refund' AND refund_id IS NULL)`)
export class AttemptEntity {
  @PrimaryColumn('uuid') id: string;
  /** Null for a payout attempt, and for the refund attempt of an executed proposal (no charge of ours). */
  @Column('uuid', { name: 'charge_id', nullable: true }) chargeId: string | null;
  @ManyToOne(() => ChargeEntity, { nullable: true })
  @JoinColumn({ name: 'charge_id', foreignKeyConstraintName: 'attempts_charge_id_fkey' })
  charge?: Relation<ChargeEntity>;
  /** A refund attempt's `charge_id` is the charge it refunds. */
  @Column('text', { default: 'charge' }) operation: AttemptOperationColumn;
  @Column('uuid', { name: 'refund_id', nullable: true }) refundId: string | null;
  @ManyToOne(() => RefundEntity, { nullable: true })
  @JoinColumn({ name: 'refund_id', foreignKeyConstraintName: 'attempts_refund_id_fkey' })
  refund?: Relation<RefundEntity>;
  @Column('uuid', { name: 'payout_id', nullable: true }) payoutId: string | null;
  @ManyToOne(() => PayoutEntity, { nullable: true })
  @JoinColumn({ name: 'payout_id', foreignKeyConstraintName: 'attempts_payout_id_fkey' })
  payout?: Relation<PayoutEntity>;
  @Column('uuid', { name: 'idempotency_key' }) idempotencyKey: string;
  @Column('text') provider: string;
  @Column('text') status: AttemptStatusColumn;
  @Column('text', { name: 'provider_ref', nullable: true }) providerRef: string | null;
  /** The exact bytes sent, so a resend after a deploy cannot burn the key with a changed body. */
  @Column('text') payload: string;
  @Column('char', { name: 'payload_hash', length: 64 }) payloadHash: string;
  @Column('int', { name: 'http_attempts', default: 0 }) httpAttempts: number;
  @Column('jsonb', { name: 'last_error', nullable: true }) lastError: object | null;
  /** Set while one process holds the right to send; an expired lease means that process died mid-call. */
  @Column('timestamptz', { name: 'lease_expires_at', nullable: true }) leaseExpiresAt: Date | null;
  /** When a pending attempt (connect failure, 429) may be sent again. */
  @Column('timestamptz', { name: 'next_send_at', nullable: true }) nextSendAt: Date | null;
  /** When the last request left us: the provider's consistency window runs from here, not from creation. */
  @Column('timestamptz', { name: 'last_sent_at', nullable: true }) lastSentAt: Date | null;
  /**
   * When the last send ended: its response was recorded, or its lease ran out (the latest a live sender could
   * still be on the wire). A strongly consistent "not found" is trusted only a grace period after this.
   */
  @Column('timestamptz', { name: 'last_send_ended_at', nullable: true }) lastSendEndedAt: Date | null;
  /** A failed-as-not-found attempt was queried once more (and still not found) before a new attempt opened. */
  @Column('timestamptz', { name: 'rechecked_at', nullable: true }) recheckedAt: Date | null;
  /**
   * The provider captured this attempt after we had failed it (its `failed` is never rewritten): the charge is
   * paid by this attempt, and opens no other (migration 1764680180000).
   */
  @Column('timestamptz', { name: 'late_captured_at', nullable: true }) lateCapturedAt: Date | null;
  @Column('text', { name: 'late_capture_provider_charge_id', nullable: true }) lateCaptureProviderChargeId: string | null;
  /** A payout attempt we failed whose transfer the provider executed after all: when we learnt it, and which transfer. */
  @Column('timestamptz', { name: 'late_executed_at', nullable: true }) lateExecutedAt: Date | null;
  @Column('text', { name: 'late_execution_end_to_end_id', nullable: true }) lateExecutionEndToEndId: string | null;
  /**
   * A refund attempt we failed that the provider refunded after all: when we learnt it, and its refund at the
   * provider. The refund cap counts it from that commit on (migration 1764680377000).
   */
  @Column('timestamptz', { name: 'late_refunded_at', nullable: true }) lateRefundedAt: Date | null;
  @Column('text', { name: 'late_refund_provider_ref', nullable: true }) lateRefundProviderRef: string | null;
  /** What the provider says that late refund refunded, which the cap counts (migration 1764680392000). */
  @Column('bigint', { name: 'late_refund_amount_cents', nullable: true, transformer: bigintNumber })
  lateRefundAmountCents: number | null;
  /**
   * A created charge that waits for its payer (an Asaas boleto or Pix before its due date and grace): still open,
   * but no unknown. No resolution try counts against it before this instant, when it is checked (migration 1764680260000).
   */
  @Column('timestamptz', { name: 'awaiting_payment_until', nullable: true }) awaitingPaymentUntil: Date | null;
  @Column('int', { name: 'resolution_tries', default: 0 }) resolutionTries: number;
  @Column('text', { name: 'resolved_by', nullable: true }) resolvedBy: string | null;
  @Column('timestamptz', { name: 'unknown_since', nullable: true }) unknownSince: Date | null;
  @Column('timestamptz', { name: 'resolved_at', nullable: true }) resolvedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
