import type { EntityManager } from 'typeorm';
import type { AttemptStatus } from './rules/attempt-status.js';

export interface LockedAttempt {
  id: string;
  /** Null for a payout attempt (its payout is the owner locked), or a proposal's refund attempt (its refund is). */
  chargeId: string | null;
  operation: 'charge' | 'refund' | 'payout';
  status: AttemptStatus;
  providerChargeId: string | null;
  /**
   * The provider charge that captured this attempt after we had failed it; for a refund attempt the provider's
   * refund, for a payout attempt the transfer (end-to-end id), the provider executed after we had failed it.
   */
  lateCaptureProviderChargeId: string | null;
  resolvedBy: string | null;
  provider: string;
  amountCents: number;
  currency: string;
}

/**
 * Locks the attempt's charge (the row the attempt opener locks before it may open a new attempt), then the
 * attempt itself, FOR UPDATE because what follows may change its unique provider id. Always in this order,
 * charge then attempt, and before the caller inserts anything that references the attempt, so two writers
 * recording facts about one attempt never deadlock and no new attempt slips in between.
 */
export async function lockChargeAndAttempt(em: EntityManager, attemptId: string): Promise<LockedAttempt | null> {
  const charges = await em.query<Array<{ id: string; amount_cents: string; currency: string }>>(
    `SELECT c.id, c.amount_cents, c.currency FROM charges c
      WHERE c.id = (SELECT charge_id FROM attempts WHERE id = $1) FOR UPDATE`,
    [attemptId],
  );
  if (charges.length === 0 && !(await lockChargelessRefund(em, attemptId))) return lockPayoutAndAttempt(em, attemptId);
  const [attempt] = await em.query<Array<{ operation: 'charge' | 'refund'; status: AttemptStatus; provider_charge_id: string | null; late_capture_provider_charge_id: string | null; resolved_by: string | null; provider: string; refund_amount_cents: string | null; refund_currency: string | null }>>(
    `SELECT a.operation, a.status, a.provider_ref AS provider_charge_id, COALESCE(a.late_capture_provider_charge_id, a.late_refund_provider_ref) AS late_capture_provider_charge_id, a.resolved_by, a.provider, r.amount_cents AS refund_amount_cents, r.currency AS refund_currency
       FROM attempts a LEFT JOIN refunds r ON r.id = a.refund_id WHERE a.id = $1 FOR UPDATE OF a`,
    [attemptId],
  );
  return {
    id: attemptId,
    chargeId: charges[0]?.id ?? null,
    operation: attempt.operation,
    status: attempt.status,
    providerChargeId: attempt.provider_charge_id,
    lateCaptureProviderChargeId: attempt.late_capture_provider_charge_id,
    resolvedBy: attempt.resolved_by,
    provider: attempt.provider,
    // What the provider must report: a refund attempt's money is its refund's, not the whole charge.
    amountCents: Number(attempt.refund_amount_cents ?? charges[0].amount_cents),
    currency: (attempt.refund_currency ?? charges[0].currency).trim(),
  };
}

/**
 * A refund of a provider charge that is no charge of ours (an executed refund proposal) has no charge row to
 * lock: its refund row, the row its opener creates, stands in, taken in the same place of the order.
 */
async function lockChargelessRefund(em: EntityManager, attemptId: string): Promise<boolean> {
  const rows = await em.query<Array<{ id: string }>>(
    `SELECT r.id FROM refunds r
      WHERE r.id = (SELECT refund_id FROM attempts WHERE id = $1 AND charge_id IS NULL) FOR UPDATE`,
    [attemptId],
  );
  return rows.length === 1;
}

/**
 * A payout attempt has no charge: its payout row takes the charge's place in the lock order (owner, then
 * attempt), so the payout opener and every writer of facts about its attempts serialise the same way.
 */
async function lockPayoutAndAttempt(em: EntityManager, attemptId: string): Promise<LockedAttempt | null> {
  const payouts = await em.query<Array<{ amount_cents: string; currency: string }>>(
    `SELECT p.amount_cents, p.currency FROM payouts p
      WHERE p.id = (SELECT payout_id FROM attempts WHERE id = $1) FOR UPDATE`,
    [attemptId],
  );
  if (payouts.length === 0) return null;
  const [attempt] = await em.query<Array<{ status: AttemptStatus; provider_charge_id: string | null; late_execution_end_to_end_id: string | null; resolved_by: string | null; provider: string }>>(
    `SELECT status, provider_ref AS provider_charge_id, late_execution_end_to_end_id, resolved_by, provider FROM attempts WHERE id = $1 FOR UPDATE`,
    [attemptId],
  );
  return {
    id: attemptId,
    chargeId: null,
    operation: 'payout',
    status: attempt.status,
    providerChargeId: attempt.provider_charge_id,
    lateCaptureProviderChargeId: attempt.late_execution_end_to_end_id,
    resolvedBy: attempt.resolved_by,
    provider: attempt.provider,
    amountCents: Number(payouts[0].amount_cents),
    currency: payouts[0].currency.trim(),
  };
}
