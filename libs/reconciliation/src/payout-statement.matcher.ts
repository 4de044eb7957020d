import type { PoolClient } from 'pg';
import { absentFromStatement, lineNotYetReviewed, recordClassifiedLines, recordMissingDivergences, type MatchScope, type SettleCandidate, type StatementMatcher } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';

/**
 * Pix payouts: the provider's executed transfers (`payout` lines, negative: money that left) against our payout
 * attempts. A transfer belongs to the attempt that learnt its end-to-end id, else to the attempt its transfer id
 * names (idEnvio is the attempt id). The divergence kinds read in money-out terms: `provider_only` is money sent
 * with no success of ours (the worst: a failed attempt released its reservation), `duplicate_transfer` a transfer
 * for a payout that already succeeded through another transfer. Nothing is proposed automatically: money sent cannot be
 * refunded by us, so the open divergence, and the review item the applier opens for a contradicted attempt, are
 * the finance team's to act on. Transfers in progress or not executed are staged as `other`: they moved no money.
 */

/**
 * Each executed transfer of the day with the attempt and payout it belongs to, and the payout's success if any;
 * `params` names the placeholders of the provider and the window.
 */
const transfersOfTheDay = (params: { provider: string; from: string; to: string }) => `
  SELECT s.line_id, s.provider_charge_id AS e2e, s.reference AS transfer_id, -s.amount_cents AS amount_cents, s.currency, s.created_at,
         COALESCE(ae.id, ar.id) AS attempt_id, COALESCE(ae.status, ar.status) AS attempt_status,
         COALESCE(ae.provider_ref, ar.provider_ref) AS attempt_e2e,
         p.id AS payout_id, p.amount_cents AS payout_amount, p.currency AS payout_currency,
         succ.id AS succeeded_attempt_id, succ.provider_ref AS succeeded_e2e
    FROM ${STAGING_TABLE} s
    LEFT JOIN attempts ae ON ae.provider_ref = s.provider_charge_id AND ae.provider = ${params.provider} AND ae.operation = 'payout'
    LEFT JOIN attempts ar ON ae.id IS NULL AND ar.id = s.attempt_ref AND ar.provider = ${params.provider} AND ar.operation = 'payout'
    LEFT JOIN payouts p ON p.id = COALESCE(ae.payout_id, ar.payout_id)
    LEFT JOIN attempts succ ON succ.payout_id = p.id AND succ.operation = 'payout' AND succ.status = 'succeeded'
   WHERE s.kind = 'payout' AND s.created_at >= ${params.from} AND s.created_at < ${params.to}`;

/**
 * Executed transfers that tell an attempt something its record does not show, each put once through the one
 * applier: an unknown attempt settles (its reservation becomes a debit); a failed one (its money released) or a
 * succeeded one with another transfer gets a review item with the line as evidence, never a rewritten status.
 * Every such line is a candidate, the one fitting the payout first, so an attempt settled by one transfer has its
 * second transfer put to a person in the same run. A line already put before a person (in an item's findings)
 * is not put again on a re-run of the day.
 */
async function findSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]> {
  const { rows } = await client.query<SettleCandidate>(
    `WITH transfers AS (${transfersOfTheDay({ provider: '$1', from: '$2', to: '$3' })})
     SELECT t.attempt_id AS "attemptId", t.e2e AS "providerChargeId", t.line_id AS "lineId",
            t.transfer_id AS "transferId", t.amount_cents::float8 AS "amountCents", t.currency, t.created_at AS "createdAt"
       FROM transfers t
      WHERE t.attempt_id IS NOT NULL
        AND (t.attempt_status IN ('unknown', 'failed') OR (t.attempt_status = 'succeeded' AND t.attempt_e2e IS DISTINCT FROM t.e2e))
        AND ${lineNotYetReviewed('t.attempt_id', 't.line_id')}
      ORDER BY t.attempt_id, (t.amount_cents = t.payout_amount AND t.currency = t.payout_currency) DESC, t.created_at, t.line_id`,
    [scope.provider, scope.window.start, scope.window.end],
  );
  return rows;
}

/**
 * Classifies every executed transfer of the day. The one transfer that is a payout's success is the one whose
 * end-to-end id the succeeded attempt learnt (or, when it learnt none, the earliest naming that attempt); every
 * other executed transfer of a succeeded payout, even one naming the same attempt, is a second payment of it.
 */
async function recordTransferDivergences(client: PoolClient, scope: MatchScope): Promise<number> {
  return recordClassifiedLines(
    client,
    scope,
    `transfers AS (${transfersOfTheDay({ provider: '$2', from: '$4', to: '$5' })}
     ), judged AS (
       SELECT *, CASE
           WHEN succeeded_attempt_id IS NULL THEN NULL
           WHEN succeeded_e2e IS NOT NULL THEN e2e = succeeded_e2e
           ELSE line_id = (SELECT f.line_id FROM ${STAGING_TABLE} f WHERE f.kind = 'payout' AND f.attempt_ref = succeeded_attempt_id
                            ORDER BY f.created_at, f.line_id LIMIT 1)
         END AS is_the_success
         FROM transfers
     ), classified AS (
       SELECT line_id, e2e AS provider_charge_id, e2e AS subject, payout_id AS owner_id, attempt_id, amount_cents, currency,
              created_at AS seen_at,
              jsonb_build_object('lineId', line_id, 'transferId', transfer_id, 'lineCreatedAt', created_at, 'attemptStatus', attempt_status,
                                 'expectedAmountCents', payout_amount, 'expectedCurrency', payout_currency,
                                 'succeededAttemptId', succeeded_attempt_id, 'succeededEndToEndId', succeeded_e2e) AS detail,
              CASE
                WHEN is_the_success THEN
                  CASE WHEN currency <> payout_currency THEN 'currency_mismatch'
                       WHEN amount_cents <> payout_amount THEN 'amount_mismatch' ELSE 'matched' END
                WHEN succeeded_attempt_id IS NOT NULL THEN 'duplicate_transfer'
                WHEN attempt_status = 'unknown' AND currency <> payout_currency THEN 'currency_mismatch'
                WHEN attempt_status = 'unknown' AND amount_cents <> payout_amount THEN 'amount_mismatch'
                ELSE 'provider_only' END AS kind
         FROM judged
     )`,
    'payout_id',
  );
}

/**
 * Our payouts recorded as sent (succeeded) during the day with no executed transfer in the statement: the ledger
 * debited money the provider says never left, or is still moving. The provider's own status of the transfer
 * (NAO_REALIZADO, EM_PROCESSAMENTO), when the statement lists it, goes into the detail.
 */
async function recordMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void> {
  await recordMissingDivergences(
    client,
    scope,
    `SELECT 'missing_at_provider' AS kind, a.id::text AS subject, a.provider_ref AS provider_charge_id, a.payout_id AS owner_id, a.id AS attempt_id,
            p.amount_cents, p.currency, a.created_at AS seen_at, NULL::text AS line_id,
            jsonb_build_object('attemptCreatedAt', a.created_at, 'resolvedBy', a.resolved_by, 'resolvedAt', a.resolved_at,
                               'providerTransfer', (
                                 SELECT jsonb_build_object('lineId', o.line_id, 'transferId', o.reference, 'status', o.provider_status,
                                                           'amountCents', -o.amount_cents, 'requestedAt', o.created_at)
                                   FROM ${STAGING_TABLE} o
                                  WHERE o.kind = 'other' AND (o.attempt_ref = a.id OR o.provider_charge_id = a.provider_ref)
                                  ORDER BY o.created_at DESC, o.line_id LIMIT 1)) AS detail
       FROM attempts a
       JOIN payouts p ON p.id = a.payout_id
      WHERE a.provider = $2 AND a.operation = 'payout' AND a.status = 'succeeded' AND a.created_at >= $4 AND a.created_at < $5
        AND ${absentFromStatement('payout', 'provider_charge_id')}`,
    'payout_id',
  );
}

export const PAYOUT_STATEMENT_MATCHER: StatementMatcher = {
  findSettleCandidates,
  recordLineDivergences: recordTransferDivergences,
  recordMissingAtProvider,
};
