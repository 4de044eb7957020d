import type { EntityManager } from 'typeorm';
import type { AttemptStatus } from './rules/attempt-status.js';

export interface LockedAttempt {
  id: string;
  chargeId: string;
  status: AttemptStatus;
  providerChargeId: string | null;
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
      WHERE c.id = (SELECT charge_id FROM charge_attempts WHERE id = $1) FOR UPDATE`,
    [attemptId],
  );
  if (charges.length === 0) return null;
  const [attempt] = await em.query<Array<{ status: AttemptStatus; provider_charge_id: string | null; resolved_by: string | null; provider: string }>>(
    `SELECT status, provider_charge_id, resolved_by, provider FROM charge_attempts WHERE id = $1 FOR UPDATE`,
    [attemptId],
  );
  return {
    id: attemptId,
    chargeId: charges[0].id,
    status: attempt.status,
    providerChargeId: attempt.provider_charge_id,
    resolvedBy: attempt.resolved_by,
    provider: attempt.provider,
    amountCents: Number(charges[0].amount_cents),
    currency: charges[0].currency,
  };
}
