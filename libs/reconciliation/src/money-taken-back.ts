import type { PoolClient } from 'pg';
import { recordMissingDivergences, type MatchScope } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';

/**
 * The day's chargebacks, their reversals and custody blocks (and releases): money the provider took back from a
 * payment, gave back, or holds. None is ours to decide, and none rewrites an attempt: each line is a divergence of
 * its own kind for a person (`chargeback`, `chargeback_reversal`, `custody_block`), keyed by the line, naming our
 * charge when the payment is one of our attempts', with the provider's own word for it as evidence. The money
 * itself is counted on the charge by the movements step, as before.
 */
export async function recordMoneyTakenBack(client: PoolClient, scope: MatchScope): Promise<void> {
  await recordMissingDivergences(
    client,
    scope,
    `SELECT CASE s.kind WHEN 'dispute' THEN 'chargeback' WHEN 'dispute_reversal' THEN 'chargeback_reversal' ELSE 'custody_block' END AS kind,
            s.line_id AS subject, s.provider_charge_id, COALESCE(a.charge_id, ar.charge_id) AS owner_id, COALESCE(a.id, ar.id) AS attempt_id,
            abs(s.amount_cents) AS amount_cents, s.currency, s.created_at AS seen_at, s.line_id,
            jsonb_build_object('lineId', s.line_id, 'lineKind', s.kind, 'providerType', s.provider_status, 'providerReference', s.reference,
                               'signedAmountCents', s.amount_cents, 'lineCreatedAt', s.created_at,
                               'attemptStatus', COALESCE(a.status, ar.status)) AS detail
       FROM ${STAGING_TABLE} s
       LEFT JOIN attempts a ON a.provider_ref = s.provider_charge_id AND a.provider = $2 AND a.operation = 'charge'
       LEFT JOIN attempts ar ON a.id IS NULL AND ar.id = s.attempt_ref AND ar.provider = $2 AND ar.operation = 'charge'
      WHERE s.kind IN ('dispute', 'dispute_reversal', 'custody_block', 'custody_release') AND s.created_at >= $4 AND s.created_at < $5`,
    'charge_id',
  );
}
