import type { PoolClient } from 'pg';
import type { MatchScope } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';
import { refundLineOfRun } from './refund-statement.matcher.js';

/**
 * Runs `step` (the recording of the day's refund divergences) in one transaction that first locks, FOR UPDATE and
 * in id order, every charge the day's refund lines touch: the row the refund opener locks before it commits an
 * amount against the charge's cap. A `refund_provider_only` or a mismatch's excess lowers that cap, so the two
 * serialise, and each decides after the other committed: the opener's check reads the divergence recorded before
 * it, and `step`, a statement that starts after the lock is granted, classifies against the refund committed
 * before it (a check inside one statement would keep the snapshot it took before waiting). Charges are locked
 * by the payment a line names (our capture of it), by our refund attempt that holds the line's refund id, or by the
 * attempt its metadata names: each an indexed join, so a day with few refunds locks few rows.
 */
export async function withRefundChargesLocked<T>(client: PoolClient, scope: MatchScope, step: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query(
      `WITH day_refunds AS (
         SELECT provider_charge_id, reference, attempt_ref FROM ${STAGING_TABLE} s WHERE ${refundLineOfRun('s', '$2')}
       )
       SELECT c.id FROM charges c
        WHERE c.id IN (SELECT a.charge_id FROM day_refunds s JOIN attempts a ON a.provider_ref = s.provider_charge_id AND a.provider = $1
                       UNION SELECT a.charge_id FROM day_refunds s JOIN attempts a ON a.provider_ref = s.reference AND a.provider = $1
                       UNION SELECT a.charge_id FROM day_refunds s JOIN attempts a ON a.id = s.attempt_ref AND a.provider = $1)
        ORDER BY c.id FOR UPDATE OF c`,
      [scope.provider, scope.window.end],
    );
    const result = await step();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
