import type { EntityManager } from 'typeorm';
import { ChargeAttemptEntity, isUniqueViolation, msInterval } from '@app/database';
import type { AttemptTransitionWriter } from './attempt-transition.writer.js';

/**
 * Inserts a new attempt already claimed for its first send (http_attempts = 1, a lease), with its creation
 * audit row, in the opener's transaction: the claim commits with the key and the payload. `openIndex` is the
 * partial unique index that keeps one open attempt per owner; under the owner's row lock it never fires,
 * and if it ever does nothing is half written. Used by the openers of refunds and payouts.
 */
export async function insertClaimedAttempt(
  em: EntityManager,
  attempt: ChargeAttemptEntity,
  opts: { openIndex: string; owner: string; leaseMs: number; transitions: AttemptTransitionWriter; actor: string },
): Promise<ChargeAttemptEntity> {
  try {
    await em.insert(ChargeAttemptEntity, attempt);
  } catch (error) {
    if (isUniqueViolation(error, opts.openIndex)) throw new Error(`${attempt.operation} ${opts.owner} already has an open attempt`, { cause: error });
    throw error;
  }
  const [rows] = await em.query<[Array<{ created_at: Date; lease_expires_at: Date }>, number]>(
    `UPDATE charge_attempts SET http_attempts = 1, last_sent_at = now(),
            lease_expires_at = now() + ${msInterval('$2')}
      WHERE id = $1 RETURNING created_at, lease_expires_at`,
    [attempt.id, opts.leaseMs],
  );
  await opts.transitions.recordCreation(em, attempt.id, opts.actor);
  return Object.assign(attempt, { httpAttempts: 1, createdAt: rows[0].created_at, leaseExpiresAt: rows[0].lease_expires_at });
}
