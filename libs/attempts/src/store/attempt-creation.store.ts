import { EntityManager, type DataSource } from 'typeorm';
import { AttemptEntity, isUniqueViolation, msInterval, preparedQuery } from '@app/database';
import { ChargeAlreadyCapturedError } from '../attempts.errors.js';
import { recordCreation } from './attempt-transition.store.js';

/**
 * Creating an attempt: always already claimed for its first send (http_attempts = 1, a lease), with its key, exact
 * payload and creation audit row in one commit before any network I/O. The partial unique indexes
 * (`uq_attempts_open_per_charge`, `..._per_refund`, `..._per_payout`) keep one open attempt per owner
 * whoever inserts; under the owner's row lock they never fire, and when they do nothing is half written.
 */

/**
 * The charge fast path, one statement: the PL/pgSQL function of migration 1764680150000 takes the charge lock and
 * only then re-confirms that `knownAttempts` are still all there are, none open, nobody reviewing; inside a
 * caller's transaction that already holds the charge lock it simply inserts. False when the facts changed or the
 * partial unique index found an open attempt; ChargeAlreadyCapturedError when the trigger of migration
 * 1764680180000 refuses because the provider holds a capture for the charge (SQLSTATE CO409).
 */
export async function openClaimedChargeAttempt(
  runner: DataSource | EntityManager,
  attempt: AttemptEntity,
  knownAttempts: number,
  leaseMs: number,
  actor: string,
): Promise<boolean> {
  const values = [attempt.chargeId, knownAttempts, attempt.id, attempt.idempotencyKey, attempt.provider, attempt.payload, attempt.payloadHash, leaseMs, actor];
  const text = `SELECT open_claimed_charge_attempt($1, $2, $3, $4, $5, $6, $7, $8, $9) AS created_at`;
  try {
    const [row] = runner instanceof EntityManager
      ? await runner.query<Array<{ created_at: Date | null }>>(text, values)
      : await preparedQuery<{ created_at: Date | null }>(runner, 'hot_open_claimed_charge_attempt', text, values);
    if (!row.created_at) return false;
    Object.assign(attempt, { status: 'pending', httpAttempts: 1, createdAt: row.created_at, operation: 'charge' });
    return true;
  } catch (error) {
    if (isUniqueViolation(error, 'uq_attempts_open_per_charge')) return false;
    const capturedBy = captureRefusal(error);
    if (capturedBy) throw new ChargeAlreadyCapturedError(attempt.chargeId!, capturedBy);
    throw error;
  }
}

/** The capturing attempt's id when the trigger of migration 1764680180000 refused a new attempt (SQLSTATE CO409). */
function captureRefusal(error: unknown): string | null {
  const driverError = (error as { driverError?: { code?: string; detail?: string } } | null)?.driverError ?? (error as { code?: string; detail?: string } | null);
  return driverError?.code === 'CO409' ? (driverError.detail ?? null) : null;
}

/**
 * A refund's or payout's attempt, in its opener's transaction under the owner's lock: insert, claim, audit row.
 * `openIndex` names the partial unique index that keeps one open attempt per owner (a violation throws, naming it).
 */
export async function insertClaimedAttempt(em: EntityManager, attempt: AttemptEntity, opts: { openIndex: string; leaseMs: number; actor: string }): Promise<AttemptEntity> {
  const owner = attempt.refundId ?? attempt.payoutId ?? attempt.chargeId;
  try {
    await em.insert(AttemptEntity, attempt);
  } catch (error) {
    if (isUniqueViolation(error, opts.openIndex)) throw new Error(`${attempt.operation} ${owner} already has an open attempt`, { cause: error });
    throw error;
  }
  const [rows] = await em.query<[Array<{ created_at: Date; lease_expires_at: Date }>, number]>(
    `UPDATE attempts SET http_attempts = 1, last_sent_at = now(),
            lease_expires_at = now() + ${msInterval('$2')}
      WHERE id = $1 RETURNING created_at, lease_expires_at`,
    [attempt.id, opts.leaseMs],
  );
  await recordCreation(em, attempt.id, opts.actor);
  return Object.assign(attempt, { httpAttempts: 1, createdAt: rows[0].created_at, leaseExpiresAt: rows[0].lease_expires_at });
}
