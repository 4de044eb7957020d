import type { DataSource, EntityManager } from 'typeorm';
import { msInterval } from '@app/database';
import { isCapture } from '../capture.sql.js';

/**
 * The claim to send. Only one process holds it at a time: `http_attempts` numbers the claims and `lease_expires_at`
 * is the lease, both taken by one conditional update; whoever records a send's result must still hold that number.
 */

/** Returns the claim number (the new http_attempts), or null when someone else holds or owns the attempt. */
export async function claimSend(db: DataSource, attemptId: string, leaseMs: number): Promise<number | null> {
  const rows = await db.query<[Array<{ http_attempts: number }>, number]>(
    `UPDATE attempts
        SET http_attempts = http_attempts + 1,
            lease_expires_at = now() + ${msInterval('$2')},
            last_sent_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'pending' AND lease_expires_at IS NULL
        AND (next_send_at IS NULL OR next_send_at <= now())
        -- Never a send for a charge the provider already captured through another attempt.
        AND (operation <> 'charge' OR NOT EXISTS (
              SELECT 1 FROM attempts x WHERE x.charge_id = attempts.charge_id AND x.operation = 'charge'
                 AND x.id <> attempts.id AND ${isCapture('x')}))
      RETURNING http_attempts`,
    [attemptId, leaseMs],
  );
  return rows[0][0]?.http_attempts ?? null;
}

/**
 * Renews a held claim before a second provider call under it (the first-send check, then the create): only while it
 * is still this holder's (pending, claim number `claimed`, lease not yet run out). False when the sweeper took it over.
 */
export async function renewClaim(db: DataSource, attemptId: string, claimed: number, leaseMs: number): Promise<boolean> {
  const [, affected] = await db.query<[unknown, number]>(
    `UPDATE attempts SET lease_expires_at = now() + ${msInterval('$3')}, updated_at = now()
      WHERE id = $1 AND status = 'pending' AND http_attempts = $2 AND lease_expires_at > now()`,
    [attemptId, claimed, leaseMs],
  );
  return affected === 1;
}

/**
 * Nothing reached the provider (connect failure, 429): the claim is given back with a backoff, by its holder only
 * (still pending, still claim number `claimed`). True when it was.
 */
export async function releaseForRetry(em: EntityManager, attemptId: string, claimed: number, lastError: Record<string, unknown> | null, delayMs: number): Promise<boolean> {
  const [, affected] = await em.query<[unknown, number]>(
    `UPDATE attempts
        SET lease_expires_at = NULL, last_error = $3, last_send_ended_at = clock_timestamp(),
            next_send_at = now() + ${msInterval('$4')}, updated_at = now()
      WHERE id = $1 AND status = 'pending' AND http_attempts = $2`,
    [attemptId, claimed, lastError, delayMs],
  );
  return affected === 1;
}

/** A late response: the send only ended now, so any grace still to run counts from here (never earlier than known). */
export async function markSendEnded(em: EntityManager, attemptId: string): Promise<void> {
  await em.query(`UPDATE attempts SET last_send_ended_at = GREATEST(last_send_ended_at, clock_timestamp()) WHERE id = $1`, [attemptId]);
}
