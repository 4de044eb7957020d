import type { PoolClient } from 'pg';
import { emptyDivergenceCounts, type DivergenceKind } from './rules/divergence-kinds.js';
import type { DayWindow } from './rules/reconciliation-day.js';

export interface MatchScope {
  runId: string;
  provider: string;
  day: string;
  window: DayWindow;
}

/** A statement line that proves a still-unknown attempt of ours executed: the settler turns it into the attempt's success. */
export interface SettleCandidate {
  attemptId: string;
  providerChargeId: string;
  lineId: string;
  /** What the provider moved, in the attempt's own terms (positive: what was charged, or what was sent). */
  amountCents: number;
  currency: string;
  createdAt: Date;
}

/**
 * The set-based steps that compare a staged statement with our attempts of one kind of money. Every step is one
 * SQL statement (or two) over the staging table, and every write is idempotent (upserts keyed by what they
 * describe), so a run taken over half-way simply runs every step again.
 */
export interface StatementMatcher {
  /** Lines proving that an unknown attempt executed, for exactly its amount and currency. */
  findSettleCandidates(client: PoolClient, scope: MatchScope): Promise<SettleCandidate[]>;
  /** Classifies every money line of the day and records its divergences; returns how many matched exactly. */
  recordLineDivergences(client: PoolClient, scope: MatchScope): Promise<number>;
  /** Our successes of the day that the statement does not show. */
  recordMissingAtProvider(client: PoolClient, scope: MatchScope): Promise<void>;
  /** Movements after the fact (refunds, disputes) that update our records; absent where a statement has none. */
  recordMoneyMovements?(client: PoolClient, scope: MatchScope): Promise<void>;
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
