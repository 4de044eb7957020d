import type { PoolClient } from 'pg';
import { recordMoneyTakenBack } from './money-taken-back.js';
import { capturedProviderChargeId, isCapture } from '@app/attempts';
import { recomputeStatementMovedBack } from '@app/charges/store';
import { recordClassifiedLines, recordMissingDivergences, type MatchScope, type SettleCandidate, type StatementMatcher } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';
import { withRefundChargesLocked } from './refund-charge.lock.js';
import { closeChargesFoundLater, closeRefundsFoundLater, closeRefundsReversedLater } from './found-later.js';
import { recordRefundsCancelledAtProvider } from './refunds-cancelled-at-provider.js';
import { findRefundSettleCandidates, recordRefundDivergences, recordRefundsMissingAtProvider, refundLineOfRun } from './refund-statement.matcher.js';

/**
 * Lines of the day that carry a still-unknown attempt's reference (its intent id, or our attempt id in the
 * metadata when the attempt never learnt its intent), for exactly the charge's amount and currency, with no
 * other attempt holding that intent. Also a failed attempt's line while its charge holds no capture: the
 * provider's statement is a capture we never recorded, and the applier records it beside the `failed` (with a
 * review item), so the charge is paid and opens no other attempt.
 * Driven from those attempts (few), each looking its lines up through the staging indexes: the attempts are
 * gathered first (MATERIALIZED), since a planner left free joined a million lines to the charges by amount.
 */
async function findSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]> {
  const { rows } = await client.query<SettleCandidate>(
    `WITH settleable AS MATERIALIZED (
       SELECT a.id, a.provider_ref, c.amount_cents, c.currency::text AS currency
         FROM attempts a
         JOIN charges c ON c.id = a.charge_id
        WHERE a.provider = $1 AND a.operation = 'charge'
          AND (a.status = 'unknown'
               OR (a.status = 'failed' AND NOT EXISTS (SELECT 1 FROM attempts x WHERE x.charge_id = a.charge_id AND x.operation = 'charge' AND ${isCapture('x')})))
     )
     SELECT DISTINCT ON (a.id) a.id AS "attemptId", s.provider_charge_id AS "providerChargeId", s.line_id AS "lineId",
            s.amount_cents::float8 AS "amountCents", s.currency, s.created_at AS "createdAt"
       FROM settleable a
       JOIN LATERAL (
         SELECT * FROM ${STAGING_TABLE} s WHERE s.provider_charge_id = a.provider_ref
         UNION ALL
         SELECT * FROM ${STAGING_TABLE} s WHERE a.provider_ref IS NULL AND s.attempt_ref = a.id
       ) s ON true
      WHERE s.kind = 'charge' AND s.provider_charge_id IS NOT NULL
        AND s.created_at >= $2 AND s.created_at < $3
        AND s.amount_cents = a.amount_cents AND s.currency = a.currency
        AND NOT EXISTS (SELECT 1 FROM attempts o WHERE o.provider_ref = s.provider_charge_id AND o.id <> a.id)
      ORDER BY a.id, s.created_at, s.line_id`,
    [scope.provider, scope.window.start, scope.window.end],
  );
  return rows;
}

/**
 * Classifies every charge line of the day, then upserts the divergences, links them to this run, and
 * proposes a refund for money held without a success of ours, all in one statement. Returns the number of
 * lines that matched a succeeded attempt exactly.
 */
async function recordChargeDivergences(client: PoolClient, scope: MatchScope): Promise<number> {
  return recordClassifiedLines(
    client,
    scope,
    `lines AS (
       SELECT s.line_id, s.provider_charge_id, s.amount_cents, s.currency, s.created_at,
              COALESCE(a.id, ar.id) AS attempt_id, COALESCE(a.status, ar.status) AS attempt_status,
              c.id AS charge_id, c.amount_cents AS charge_amount, c.currency AS charge_currency,
              COALESCE(CASE WHEN ${isCapture('a')} THEN ${capturedProviderChargeId('a')} END, succ.provider_charge_id) AS succ_pci
         FROM ${STAGING_TABLE} s
         LEFT JOIN attempts a ON a.provider_ref = s.provider_charge_id AND a.provider = $2 AND a.operation = 'charge'
         -- The lookups below run only for the few lines they concern (LIMIT keeps each a gated probe, not a hash of the
         -- whole table): by our attempt id when the intent is not ours, and the charge's capture when it is not the
         -- line's own attempt (a success, or a late capture of an attempt we had failed).
         LEFT JOIN LATERAL (SELECT ar.id, ar.status, ar.charge_id FROM attempts ar
                             WHERE a.id IS NULL AND ar.id = s.attempt_ref AND ar.provider = $2 AND ar.operation = 'charge' LIMIT 1) ar ON true
         LEFT JOIN charges c ON c.id = COALESCE(a.charge_id, ar.charge_id, s.charge_ref)
         LEFT JOIN LATERAL (SELECT ${capturedProviderChargeId('x')} AS provider_charge_id FROM attempts x
                             WHERE NOT (a.id IS NOT NULL AND ${isCapture('a')}) AND x.charge_id = c.id AND x.operation = 'charge' AND ${isCapture('x')}
                             LIMIT 1) succ ON true
        WHERE s.kind = 'charge' AND s.provider_charge_id IS NOT NULL AND s.created_at >= $4 AND s.created_at < $5
     ), kinds AS (
       SELECT lines.*,
              CASE
                WHEN succ_pci = provider_charge_id THEN
                  CASE WHEN currency <> charge_currency THEN 'currency_mismatch'
                       WHEN amount_cents <> charge_amount THEN 'amount_mismatch' ELSE 'matched' END
                WHEN succ_pci IS NOT NULL THEN 'duplicate_charge'
                WHEN attempt_status = 'unknown' AND currency <> charge_currency THEN 'currency_mismatch'
                WHEN attempt_status = 'unknown' AND amount_cents <> charge_amount THEN 'amount_mismatch'
                ELSE 'provider_only' END AS kind
         FROM lines
     ), classified AS (
       SELECT line_id, provider_charge_id, provider_charge_id AS subject, charge_id AS owner_id, attempt_id, amount_cents, currency,
              created_at AS seen_at, kind,
              -- Built for divergences only: a matched line of a million-line day needs none.
              CASE WHEN kind <> 'matched' THEN
                jsonb_build_object('lineId', line_id, 'lineCreatedAt', created_at, 'attemptStatus', attempt_status,
                                   'expectedAmountCents', charge_amount, 'expectedCurrency', charge_currency,
                                   'succeededProviderChargeId', succ_pci) END AS detail
         FROM kinds
     )`,
    'charge_id',
    `proposed AS (
       INSERT INTO refund_proposals (id, divergence_id, provider, provider_charge_id, charge_id, amount_cents, currency, reason, state)
       SELECT gen_random_uuid(), id, $2, provider_charge_id, owner_id, amount_cents, currency, kind, 'proposed'
         FROM found WHERE kind IN ('provider_only','duplicate_charge') AND amount_cents > 0
       ON CONFLICT (divergence_id) DO NOTHING
     )`,
  );
}

/**
 * Our successes created during the day whose intent is nowhere in the statement (which was read a margin
 * past the day's end, so a charge sent just before midnight is found on the other side of it).
 */
async function recordMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void> {
  await recordMissingDivergences(
    client,
    scope,
    `SELECT 'missing_at_provider' AS kind, a.id::text AS subject, a.provider_ref AS provider_charge_id, a.charge_id AS owner_id, a.id AS attempt_id,
            c.amount_cents, c.currency, a.created_at AS seen_at, NULL::text AS line_id,
            jsonb_build_object('attemptCreatedAt', a.created_at, 'resolvedBy', a.resolved_by, 'resolvedAt', a.resolved_at) AS detail
       FROM attempts a
       JOIN charges c ON c.id = a.charge_id
      WHERE a.provider = $2 AND a.operation = 'charge' AND a.status = 'succeeded' AND a.created_at >= $4 AND a.created_at < $5
        AND NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} s WHERE s.provider_charge_id = a.provider_ref AND s.kind = 'charge')`,
    'charge_id',
  );
}

/**
 * Refund and dispute lines are kept once per provider line id (with a refund booked late: refundLineOfRun); the
 * refunded and disputed amounts of every charge they touch are then recomputed from all lines ever kept, so
 * re-running a day, or a later day seeing a refund again, never counts twice.
 */
async function recordMoneyMovements(client: PoolClient, scope: MatchScope): Promise<void> {
  await client.query(
    `INSERT INTO reconciliation_money_movements (provider, line_id, kind, provider_charge_id, reference, charge_id, amount_cents, currency, occurred_at, run_id)
     -- One row per line: a statement that lists a line twice must not make the upsert touch its row twice.
     SELECT DISTINCT ON (s.line_id) $2, s.line_id, s.kind, s.provider_charge_id, CASE WHEN s.kind IN ('refund','refund_failure') THEN s.reference END,
            COALESCE(a.charge_id, ar.charge_id), s.amount_cents, s.currency, s.created_at, $1
       FROM ${STAGING_TABLE} s
       LEFT JOIN attempts a ON a.provider_ref = s.provider_charge_id AND a.provider = $2 AND a.operation = 'charge'
       LEFT JOIN attempts ar ON a.id IS NULL AND ar.id = s.attempt_ref AND ar.provider = $2 AND ar.operation = 'charge'
      WHERE s.kind IN ('refund','refund_failure','dispute','dispute_reversal') AND (s.created_at >= $3 OR ${refundLineOfRun('s', '$4')}) AND s.created_at < $4
     -- A refund line kept before movements knew their refund id gains it when a run reads the line again.
     ON CONFLICT (provider, line_id) DO UPDATE SET reference = EXCLUDED.reference
        WHERE reconciliation_money_movements.reference IS NULL AND EXCLUDED.reference IS NOT NULL`,
    [scope.runId, scope.provider, scope.window.start, scope.window.end],
  );
  await recomputeStatementMovedBack(client, STAGING_TABLE, scope.provider);
}

/**
 * Charges: the statement's charge lines against our charge attempts (by the intent id they carry, or our attempt id
 * in the payment's metadata), its refund lines against our refund attempts too (refund-statement.matcher), and its
 * refund and dispute lines against the charges they touch.
 */
export const CHARGE_STATEMENT_MATCHER: StatementMatcher = {
  findSettleCandidates: async (client, scope) => [...(await findSettleCandidates(client, scope)), ...(await findRefundSettleCandidates(client, scope))],
  recordLineDivergences: async (client, scope) =>
    (await recordChargeDivergences(client, scope)) + (await withRefundChargesLocked(client, scope, () => recordRefundDivergences(client, scope))),
  recordMissingAtProvider: async (client, scope) => {
    await recordMissingAtProvider(client, scope);
    await closeChargesFoundLater(client, scope);
    await recordRefundsMissingAtProvider(client, scope);
    await recordRefundsCancelledAtProvider(client, scope);
    await closeRefundsFoundLater(client, scope);
    await closeRefundsReversedLater(client, scope);
    await recordMoneyTakenBack(client, scope);
  },
  recordMoneyMovements,
};
