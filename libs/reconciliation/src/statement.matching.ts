import type { PoolClient } from 'pg';
import { emptyDivergenceCounts, type DivergenceKind } from './rules/divergence-kinds.js';
import type { DayWindow } from './rules/reconciliation-day.js';
import { STAGING_TABLE } from './statement.staging.js';

export interface MatchScope {
  runId: string;
  provider: string;
  day: string;
  window: DayWindow;
}

/**
 * A statement line proving that an attempt of ours executed: the settler puts it through the one applier, which
 * turns an unknown attempt into a success and sends a contradiction of a terminal one to a person.
 */
export interface SettleCandidate {
  attemptId: string;
  providerChargeId: string;
  lineId: string;
  /** What the provider moved, in the attempt's own terms (positive: what was charged, or what was sent). */
  amountCents: number;
  currency: string;
  createdAt: Date;
  /** The provider's own id of the operation when it is not the line's (Efí: idEnvio), kept as evidence. */
  transferId?: string | null;
  /**
   * `created`: the line proves only that the provider created the operation, not its outcome (Stripe writes a
   * refund's balance transaction when the refund is created; a refund that fails later gets a second, reversing
   * one). Such a line teaches an unknown attempt its provider id, so the resolver retrieves the outcome; it never
   * settles the attempt `succeeded`.
   */
  provesOnly?: 'created' | null;
}

/**
 * The set-based steps that compare a staged statement with our attempts of one kind of money. Every step is one
 * SQL statement (or two) over the staging table, and every write is idempotent (upserts keyed by what they
 * describe), so a run taken over half-way simply runs every step again.
 */
export interface StatementMatcher {
  /** Lines proving that an attempt executed where our record does not show it (charges: an unknown attempt, for exactly its amount). */
  findSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]>;
  /** Classifies every money line of the day and records its divergences; returns how many matched exactly. */
  recordLineDivergences(client: PoolClient, scope: MatchScope): Promise<number>;
  /** Our successes of the day that the statement does not show. */
  recordMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void>;
  /** Movements after the fact (refunds, disputes) that update our records; absent where a statement has none. */
  recordMoneyMovements?(client: PoolClient, scope: MatchScope): Promise<void>;
}

/** Which record of ours a divergence is about: a charge (and its refunds and disputes), or a payout. */
export type DivergenceOwner = 'charge_id' | 'payout_id';

/**
 * The CTEs every divergence step ends with, so both matchers record divergences one way. `source` names a
 * relation of candidate rows with the columns `kind, subject, provider_charge_id, owner_id, attempt_id,
 * amount_cents, currency, detail, seen_at, line_id` (rows of kind `matched` are not divergences). Each is
 * upserted once per (provider, kind, subject), the earliest line winning, so a re-run of the day updates what it
 * saw again and keeps a person's acknowledgement and what a later run added to its detail (closeRefundsFoundLater's
 * sightings; a step builds every key of its own, so only such added keys outlive the update); then it is linked to
 * this run. Parameters: $1 run id, $2 provider, $3 day. Defines `found` (`id, kind, provider_charge_id, owner_id,
 * amount_cents, currency`).
 */
function divergenceUpsertCtes(source: string, owner: DivergenceOwner): string {
  return `found AS (
       INSERT INTO reconciliation_divergences
         (id, run_id, kind, provider, day, subject, provider_charge_id, ${owner}, attempt_id, amount_cents, currency, detail, status)
       SELECT DISTINCT ON (kind, subject) gen_random_uuid(), $1, kind, $2, $3::date, subject, provider_charge_id, owner_id, attempt_id,
              amount_cents, currency, detail, 'open'
         FROM ${source} WHERE kind <> 'matched'
        ORDER BY kind, subject, seen_at, line_id
       ON CONFLICT (provider, kind, subject) DO UPDATE
         SET provider_charge_id = EXCLUDED.provider_charge_id, ${owner} = EXCLUDED.${owner}, attempt_id = EXCLUDED.attempt_id,
             amount_cents = EXCLUDED.amount_cents, currency = EXCLUDED.currency, detail = reconciliation_divergences.detail || EXCLUDED.detail
       RETURNING id, kind, provider_charge_id, ${owner} AS owner_id, amount_cents, currency
     ), linked AS (
       INSERT INTO reconciliation_run_divergences (run_id, divergence_id) SELECT $1, id FROM found ON CONFLICT DO NOTHING
     )`;
}

/** The divergences a run found or saw again, by kind. */
export async function divergenceCountsOf(client: PoolClient, runId: string): Promise<Record<DivergenceKind, number>> {
  const { rows } = await client.query<{ kind: DivergenceKind; n: number }>(
    `SELECT d.kind, count(*)::int AS n
       FROM reconciliation_run_divergences l JOIN reconciliation_divergences d ON d.id = l.divergence_id
      WHERE l.run_id = $1 GROUP BY d.kind`,
    [runId],
  );
  const counts = emptyDivergenceCounts();
  for (const row of rows) counts[row.kind] = row.n;
  return counts;
}

/**
 * SQL condition: the statement line `lineId` was not yet put before a person about the attempt `attemptId` (it is
 * in none of its review items' findings), so a re-run of the day does not put the same line to them again.
 */
export function lineNotYetReviewed(attemptId: string, lineId: string): string {
  return `NOT EXISTS (
          SELECT 1 FROM review_items r
           WHERE r.attempt_id = ${attemptId}
             AND (r.evidence->'findings'->>'lineId' = ${lineId}
                  OR r.evidence->'laterFindings' @> jsonb_build_array(jsonb_build_object('findings', jsonb_build_object('lineId', ${lineId})))))`;
}

/**
 * Records our successes absent from the statement: `missing` is a SELECT of rows shaped as divergenceUpsertCtes's
 * source, over the placeholders $2 provider, $4 and $5 the day's window.
 */
export async function recordMissingDivergences(client: PoolClient, scope: MatchScope, missing: string, owner: DivergenceOwner): Promise<void> {
  await client.query(`WITH missing AS (${missing}), ${divergenceUpsertCtes('missing', owner)} SELECT count(*)::int AS recorded FROM found`, stepParams(scope));
}

/**
 * Classifies the day's lines and records their divergences in one statement: `classifying` defines CTEs ending in
 * `classified` (rows shaped as divergenceUpsertCtes's source, `matched` for a line that agrees), `then` may add CTEs
 * reading `found`. Same placeholders as recordMissingDivergences, $4 and $5 the window; returns the lines matched.
 */
export async function recordClassifiedLines(client: PoolClient, scope: MatchScope, classifying: string, owner: DivergenceOwner, then = ''): Promise<number> {
  const { rows } = await client.query<{ matched: number }>(
    `WITH ${classifying}, ${divergenceUpsertCtes('classified', owner)}${then ? `, ${then}` : ''}
     SELECT count(*) FILTER (WHERE kind = 'matched')::int AS matched FROM classified`,
    stepParams(scope),
  );
  return rows[0].matched;
}

function stepParams(scope: MatchScope): unknown[] {
  return [scope.runId, scope.provider, scope.day, scope.window.start, scope.window.end];
}

/**
 * SQL condition: no staged line of `kind` shows the attempt `a`, by the provider's id it learnt (in the line's
 * `idColumn`) or, when it learnt none, by our attempt id the line carries.
 */
export function absentFromStatement(kind: 'payout' | 'refund', idColumn: 'provider_charge_id' | 'reference'): string {
  return `NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} s WHERE s.kind = '${kind}' AND s.${idColumn} = a.provider_ref)
          AND NOT (a.provider_ref IS NULL AND EXISTS (SELECT 1 FROM ${STAGING_TABLE} s WHERE s.kind = '${kind}' AND s.attempt_ref = a.id))`;
}
