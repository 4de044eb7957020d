import type { EntityManager } from 'typeorm';
import { ChargeAttemptEntity, isUniqueViolation } from '@app/database';
import { OpenAttemptExistsError } from './attempts.errors.js';

/** Inserts an attempt; the partial unique index's refusal becomes a domain error callers can act on. */
export async function insertAttempt(em: EntityManager, attempt: ChargeAttemptEntity): Promise<void> {
  try {
    await em.insert(ChargeAttemptEntity, attempt);
  } catch (error) {
    if (attempt.chargeId && isUniqueViolation(error, 'uq_charge_attempts_open_per_charge')) throw new OpenAttemptExistsError(attempt.chargeId);
    throw error;
  }
}
