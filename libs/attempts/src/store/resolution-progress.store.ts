import type { DataSource, EntityManager } from 'typeorm';

/**
 * The resolver's bookkeeping on an unknown attempt. Both writes are guarded by `status = 'unknown'`: once anyone
 * resolved the attempt, its tries and its wait for a payer are history and nothing here touches them.
 */

/**
 * Counts a resolution try only while the attempt is still unknown (null: someone resolved it meanwhile), and reads
 * how long before the lookup left its last send had ended, by the database's clock.
 */
export async function countResolutionTry(db: DataSource, attemptId: string, lookupStartedAt: Date): Promise<{ tryNumber: number; msSinceSendEnded: number } | null> {
  const [rows] = await db.query<[Array<{ resolution_tries: number; ms_since_send_ended: number }>, number]>(
    `UPDATE attempts SET resolution_tries = resolution_tries + 1, updated_at = now()
      WHERE id = $1 AND status = 'unknown'
      RETURNING resolution_tries,
                (EXTRACT(EPOCH FROM $2::timestamptz - COALESCE(last_send_ended_at, last_sent_at, created_at)) * 1000)::float8
                  AS ms_since_send_ended`,
    [attemptId, lookupStartedAt],
  );
  const row = rows[0];
  return row ? { tryNumber: row.resolution_tries, msSinceSendEnded: row.ms_since_send_ended } : null;
}

/**
 * The provider holds a charge waiting for its payer until `until`: waiting is no failed try, so the count starts
 * again. Only while still unknown and still naming that provider charge; true when it was written.
 */
export async function markAwaitingPayment(em: EntityManager, attemptId: string, until: Date, providerChargeId: string): Promise<boolean> {
  const [, affected] = await em.query<[unknown[], number]>(
    `UPDATE attempts SET awaiting_payment_until = $2, resolution_tries = 0, updated_at = now()
      WHERE id = $1 AND status = 'unknown' AND provider_ref = $3`,
    [attemptId, until, providerChargeId],
  );
  return affected === 1;
}
