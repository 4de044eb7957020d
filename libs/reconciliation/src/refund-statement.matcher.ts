import type { PoolClient } from 'pg';
import { absentFromStatement, lineNotYetReviewed, recordClassifiedLines, recordMissingDivergences, type MatchScope, type SettleCandidate } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';

/**
 * Refund lines (negative: money given back) against our refund attempts. A line belongs to the refund attempt that
 * learnt its refund id (`reference`, Stripe's `re_...`), else to the attempt its metadata names (`attempt_ref`, read
 * from the refund's own metadata when the statement gives it). The charge it touches is our refund's, or the one
 * whose payment the line names.
 */

/**
 * SQL: the staged refund line `s` is this run's to classify, `end` being the day's end. Its own day's, or one dated
 * before the day: a refund the provider booked late (Asaas enters a refund in its extrato once DONE, a day or more
 * after its `dateCreated`), which only the run of a day that shows it can see. Keyed by refund id, a refund two runs
 * see is one divergence and one money movement. A line dated after the day (a later refund of a payment the day's
 * statement names) is a later day's.
 */
export function refundLineOfRun(s: string, end: string): string {
  return `${s}.kind = 'refund' AND ${s}.created_at < ${end}`;
}

/**
 * SQL: the refund line `s` has no `refund_failure`, staged beside it or kept by the run of a later day that was read
 * first. A reversed refund moved no money: its line proves nothing for a failed attempt of ours and is no
 * provider-only refund (refunds-cancelled-at-provider.ts puts a reversal of a refund we recorded succeeded to a
 * person; found-later.ts closes a provider-only refund whose reversal a later day shows).
 */
function notReversed(s: string, provider: string): string {
  return `NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} f WHERE f.kind = 'refund_failure' AND f.reference = ${s}.reference)
          AND NOT EXISTS (SELECT 1 FROM reconciliation_money_movements k
                           WHERE k.kind = 'refund_failure' AND k.provider = ${provider} AND k.reference = ${s}.reference)`;
}

/**
 * A refund line for an unknown refund attempt (for exactly its amount) proves only that the refund was created:
 * Stripe writes it at creation, and a refund that fails later is reversed by another line. So it teaches the attempt
 * its refund id (the resolver then retrieves the outcome) and never settles it. A line for one we recorded as failed
 * goes through the applier as a success, which never rewrites `failed` and opens a review item with the line as
 * evidence (once: a re-run does not put the same line to a person again).
 */
export async function findRefundSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]> {
  const { rows } = await client.query<SettleCandidate>(
    `SELECT DISTINCT ON (a.id) a.id AS "attemptId", s.reference AS "providerChargeId", s.line_id AS "lineId",
            (-s.amount_cents)::float8 AS "amountCents", s.currency, s.created_at AS "createdAt",
            CASE WHEN a.status = 'unknown' THEN 'created' END AS "provesOnly"
       FROM attempts a
       JOIN refunds r ON r.id = a.refund_id
       JOIN ${STAGING_TABLE} s
         ON ${refundLineOfRun('s', '$2')} AND (s.reference = a.provider_ref OR (a.provider_ref IS NULL AND s.attempt_ref = a.id))
      WHERE a.provider = $1 AND a.operation = 'refund' AND a.status IN ('unknown', 'failed')
        AND s.reference IS NOT NULL
        AND (a.status = 'failed' OR (-s.amount_cents = r.amount_cents AND s.currency = r.currency))
        AND NOT EXISTS (SELECT 1 FROM attempts o WHERE o.provider_ref = s.reference AND o.id <> a.id)
        AND ${notReversed('s', '$1')}
        AND ${lineNotYetReviewed('a.id', 's.line_id')}
      ORDER BY a.id, s.created_at, s.line_id`,
    [scope.provider, scope.window.end],
  );
  return rows;
}

/**
 * Classifies every refund line of the day: ours and succeeded for its amount (matched), ours for another amount
 * (`refund_amount_mismatch`), or a refund with no success of ours behind it (`refund_provider_only`: none, or one
 * we recorded as failed). An unknown refund of ours for its amount is no divergence: the resolver decides it. Subject and provider id: the refund's own id. Returns the matched lines.
 */
export async function recordRefundDivergences(client: PoolClient, scope: MatchScope): Promise<number> {
  return recordClassifiedLines(
    client,
    scope,
    `lines AS (
       SELECT s.line_id, s.reference, s.provider_charge_id AS payment_id, -s.amount_cents AS amount_cents, s.currency, s.created_at,
              COALESCE(a.id, ar.id) AS attempt_id, COALESCE(a.status, ar.status) AS attempt_status,
              r.id AS refund_id, r.amount_cents AS refund_amount, r.currency::text AS refund_currency,
              COALESCE(r.charge_id, (SELECT p.charge_id FROM attempts p
                                      WHERE p.provider_ref = s.provider_charge_id AND p.provider = $2 AND p.operation = 'charge' LIMIT 1)) AS charge_id
         FROM ${STAGING_TABLE} s
         LEFT JOIN attempts a ON a.provider_ref = s.reference AND a.provider = $2 AND a.operation = 'refund'
         LEFT JOIN attempts ar ON a.id IS NULL AND ar.id = s.attempt_ref AND ar.provider = $2 AND ar.operation = 'refund'
         LEFT JOIN refunds r ON r.id = COALESCE(a.refund_id, ar.refund_id)
        WHERE ${refundLineOfRun('s', '$5')} AND ${notReversed('s', '$2')}
     ), classified AS (
       SELECT line_id, reference AS provider_charge_id, COALESCE(reference, line_id) AS subject, charge_id AS owner_id, attempt_id,
              amount_cents, currency, created_at AS seen_at,
              jsonb_build_object('lineId', line_id, 'lineCreatedAt', created_at, 'paymentProviderChargeId', payment_id, 'refundId', refund_id,
                                 'attemptStatus', attempt_status, 'expectedAmountCents', refund_amount, 'expectedCurrency', refund_currency,
                                 'bookedAfterItsDay', created_at < $4) AS detail,
              CASE
                -- Ours and in doubt: the line taught the attempt its refund id and the resolver decides; its amount is
                -- already committed against the charge, so it is no divergence and never lowers the cap twice.
                WHEN attempt_status = 'unknown' AND amount_cents = refund_amount AND currency = refund_currency THEN 'matched'
                WHEN attempt_status IS DISTINCT FROM 'succeeded' THEN 'refund_provider_only'
                WHEN amount_cents <> refund_amount OR currency <> refund_currency THEN 'refund_amount_mismatch'
                ELSE 'matched' END AS kind
         FROM lines
     )`,
    'charge_id',
  );
}

/**
 * Our refunds recorded as succeeded during the day whose refund the statement does not show. One the provider books
 * on a later day is closed by the run that stages its line (closeRefundsFoundLater), never deleted.
 */
export async function recordRefundsMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void> {
  await recordMissingDivergences(
    client,
    scope,
    `SELECT 'refund_missing_at_provider' AS kind, a.id::text AS subject, a.provider_ref AS provider_charge_id, r.charge_id AS owner_id, a.id AS attempt_id,
            r.amount_cents, r.currency::text AS currency, a.created_at AS seen_at, NULL::text AS line_id,
            jsonb_build_object('attemptCreatedAt', a.created_at, 'resolvedBy', a.resolved_by, 'resolvedAt', a.resolved_at, 'refundId', r.id) AS detail
       FROM attempts a
       JOIN refunds r ON r.id = a.refund_id
      WHERE a.provider = $2 AND a.operation = 'refund' AND a.status = 'succeeded' AND a.created_at >= $4 AND a.created_at < $5
        AND ${absentFromStatement('refund', 'reference')}`,
    'charge_id',
  );
}
