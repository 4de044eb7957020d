import type { PoolClient } from 'pg';
import type { MatchScope, SettleCandidate, StatementMatcher } from './statement-matching.js';
import { STAGING_TABLE } from './statement-staging.js';

/**
 * Pix payouts: the provider's executed transfers (`payout` lines, negative: money that left) against our payout
 * attempts, found by the attempt the transfer id names (idEnvio is the attempt id) or by the end-to-end id an
 * attempt learnt. The divergence kinds are the charges': `provider_only` is money sent with no success of ours
 * (the worst: a failed attempt released its reservation), `duplicate_charge` a second transfer for a payout
 * that already succeeded. Nothing is proposed automatically: money sent cannot be refunded by us, so the open
 * divergence is the finance team's to act on.
 */

/** The staged line an attempt is matched with: the one naming it by transfer id first, else by end-to-end id. */
const LINE_OF_ATTEMPT = `(s.attempt_ref = a.id OR s.provider_charge_id = a.provider_charge_id)`;

async function findSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]> {
  const { rows } = await client.query<SettleCandidate>(
    `SELECT DISTINCT ON (a.id) a.id AS "attemptId", s.provider_charge_id AS "providerChargeId", s.line_id AS "lineId",
            (-s.amount_cents)::float8 AS "amountCents", s.currency, s.created_at AS "createdAt"
       FROM charge_attempts a
       JOIN payouts p ON p.id = a.payout_id
       JOIN ${STAGING_TABLE} s ON ${LINE_OF_ATTEMPT}
      WHERE a.provider = $1 AND a.operation = 'payout' AND a.status = 'unknown'
        AND s.kind = 'payout' AND s.created_at >= $2 AND s.created_at < $3
        AND -s.amount_cents = p.amount_cents AND s.currency = p.currency
        AND NOT EXISTS (SELECT 1 FROM charge_attempts o WHERE o.provider_charge_id = s.provider_charge_id AND o.id <> a.id)
      ORDER BY a.id, (s.attempt_ref = a.id) DESC, s.created_at, s.line_id`,
    [scope.provider, scope.window.start, scope.window.end],
  );
  return rows;
}

async function recordTransferDivergences(client: PoolClient, scope: MatchScope): Promise<number> {
  const { rows } = await client.query<{ matched: number }>(
    `WITH lines AS (
       SELECT s.line_id, s.provider_charge_id AS e2e, -s.amount_cents AS amount_cents, s.currency, s.created_at,
              a.id AS attempt_id, a.status AS attempt_status, p.id AS payout_id,
              p.amount_cents AS payout_amount, p.currency AS payout_currency,
              (SELECT o.id FROM charge_attempts o WHERE o.payout_id = p.id AND o.operation = 'payout' AND o.status = 'succeeded'
                ORDER BY o.id = a.id DESC LIMIT 1) AS succeeded_attempt_id
         FROM ${STAGING_TABLE} s
         LEFT JOIN LATERAL (
           SELECT a.id, a.status, a.payout_id FROM charge_attempts a
            WHERE a.provider = $2 AND a.operation = 'payout' AND ${LINE_OF_ATTEMPT}
            ORDER BY a.id = s.attempt_ref DESC LIMIT 1) a ON true
         LEFT JOIN payouts p ON p.id = a.payout_id
        WHERE s.kind = 'payout' AND s.created_at >= $4 AND s.created_at < $5
     ), classified AS (
       SELECT *, CASE
           WHEN succeeded_attempt_id = attempt_id THEN
             CASE WHEN currency <> payout_currency THEN 'currency_mismatch'
                  WHEN amount_cents <> payout_amount THEN 'amount_mismatch' ELSE 'matched' END
           WHEN succeeded_attempt_id IS NOT NULL THEN 'duplicate_charge'
           WHEN attempt_status = 'unknown' AND currency <> payout_currency THEN 'currency_mismatch'
           WHEN attempt_status = 'unknown' AND amount_cents <> payout_amount THEN 'amount_mismatch'
           ELSE 'provider_only' END AS kind
         FROM lines
     ), found AS (
       INSERT INTO reconciliation_divergences
         (id, run_id, kind, provider, day, subject, provider_charge_id, payout_id, attempt_id, amount_cents, currency, detail, status)
       SELECT DISTINCT ON (kind, e2e) gen_random_uuid(), $1, kind, $2, $3::date, e2e, e2e, payout_id, attempt_id, amount_cents, currency,
              jsonb_build_object('lineId', line_id, 'lineCreatedAt', created_at, 'attemptStatus', attempt_status,
                                 'expectedAmountCents', payout_amount, 'expectedCurrency', payout_currency,
                                 'succeededAttemptId', succeeded_attempt_id),
              'open'
         FROM classified WHERE kind <> 'matched'
        ORDER BY kind, e2e, created_at, line_id
       ON CONFLICT (provider, kind, subject) DO UPDATE
         SET payout_id = EXCLUDED.payout_id, attempt_id = EXCLUDED.attempt_id, amount_cents = EXCLUDED.amount_cents,
             currency = EXCLUDED.currency, detail = EXCLUDED.detail
       RETURNING id
     ), linked AS (
       INSERT INTO reconciliation_run_divergences (run_id, divergence_id) SELECT $1, id FROM found ON CONFLICT DO NOTHING
     )
     SELECT count(*) FILTER (WHERE kind = 'matched')::int AS matched FROM classified`,
    [scope.runId, scope.provider, scope.day, scope.window.start, scope.window.end],
  );
  return rows[0].matched;
}

/**
 * Our payouts recorded as sent (succeeded) during the day with no executed transfer in the statement: the ledger
 * debited money the provider says never left, or is still moving.
 */
async function recordMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void> {
  await client.query(
    `WITH found AS (
       INSERT INTO reconciliation_divergences
         (id, run_id, kind, provider, day, subject, provider_charge_id, payout_id, attempt_id, amount_cents, currency, detail, status)
       SELECT gen_random_uuid(), $1, 'missing_at_provider', $2, $3::date, a.id::text, a.provider_charge_id, a.payout_id, a.id,
              p.amount_cents, p.currency,
              jsonb_build_object('attemptCreatedAt', a.created_at, 'resolvedBy', a.resolved_by, 'resolvedAt', a.resolved_at),
              'open'
         FROM charge_attempts a
         JOIN payouts p ON p.id = a.payout_id
        WHERE a.provider = $2 AND a.operation = 'payout' AND a.status = 'succeeded' AND a.created_at >= $4 AND a.created_at < $5
          AND NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} s WHERE s.kind = 'payout' AND s.attempt_ref = a.id)
          AND NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} s WHERE s.kind = 'payout' AND s.provider_charge_id = a.provider_charge_id)
       ON CONFLICT (provider, kind, subject) DO UPDATE
         SET provider_charge_id = EXCLUDED.provider_charge_id, amount_cents = EXCLUDED.amount_cents, currency = EXCLUDED.currency, detail = EXCLUDED.detail
       RETURNING id
     )
     INSERT INTO reconciliation_run_divergences (run_id, divergence_id) SELECT $1, id FROM found ON CONFLICT DO NOTHING`,
    [scope.runId, scope.provider, scope.day, scope.window.start, scope.window.end],
  );
}

export const PAYOUT_STATEMENT_MATCHER: StatementMatcher = {
  findSettleCandidates,
  recordLineDivergences: recordTransferDivergences,
  recordMissingAtProvider,
};
