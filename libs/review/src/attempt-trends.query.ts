import { Injectable } from '@nestjs/common';
import { ReplicaReader } from '@app/database/replica';

/** Upper edges (seconds) of the age buckets of unknown attempts; the last bucket is open-ended. */
const AGE_EDGES = [60, 300, 900, 3600, 21_600, 86_400];
const AGE_LABELS = ['< 1 min', '1–5 min', '5–15 min', '15–60 min', '1–6 h', '6–24 h', '> 1 day'];

/**
 * Replica lag these charts accept: hourly percentiles and age buckets of a minute and more barely move in 30 s, and a
 * chart is looked at, never acted on (a reviewer decides from the item, read on the primary).
 */
const TRENDS_STALENESS_TOLERATED_MS = 30_000;

export interface UnknownAgeBucket {
  label: string;
  fromSeconds: number;
  /** Null for the open-ended last bucket. */
  toSeconds: number | null;
  count: number;
}

export interface CertaintyPercentiles {
  /** How many attempts left `unknown` in each hour. */
  count: number[];
  p50: Array<number | null>;
  p90: Array<number | null>;
  p99: Array<number | null>;
}

export interface TimeToCertainty {
  /** Start of each hour (unix seconds), oldest first; the last is the current hour. */
  hours: number[];
  /** Seconds from `unknown` to a terminal status, by what settled it (resolver, webhook, reviewer, ...). */
  causes: Record<string, CertaintyPercentiles>;
}

/**
 * Trends of the attempts still in doubt and of how fast doubt ends, read from the attempt tables (not from metrics) on
 * the replica. Lives beside the review queue's trend, not in libs/attempts: attempts decide money and never read a replica.
 */
@Injectable()
export class AttemptTrendsQuery {
  constructor(private readonly replica: ReplicaReader) {}

  /** Every attempt unknown right now, by how long it has been unknown. */
  async unknownByAge(): Promise<UnknownAgeBucket[]> {
    const rows = await this.replica.query<{ bucket: number; count: number }>(
      TRENDS_STALENESS_TOLERATED_MS,
      `SELECT width_bucket(extract(epoch FROM now() - COALESCE(unknown_since, created_at))::float8, $1::float8[]) AS bucket, count(*)::int AS count
         FROM attempts WHERE status = 'unknown' GROUP BY 1`,
      [AGE_EDGES],
    );
    return AGE_LABELS.map((label, i) => ({
      label,
      fromSeconds: i === 0 ? 0 : AGE_EDGES[i - 1],
      toSeconds: AGE_EDGES[i] ?? null,
      count: rows.find((row) => row.bucket === i)?.count ?? 0,
    }));
  }

  /** p50/p90/p99 of time to certainty per hour over the last `hours` hours, by cause. */
  async timeToCertainty(hours: number): Promise<TimeToCertainty> {
    const rows = await this.replica.query<{ hour: number; cause: string; count: number; p: number[] }>(
      TRENDS_STALENESS_TOLERATED_MS,
      `SELECT extract(epoch FROM date_trunc('hour', t.at))::float8 AS hour, t.cause, count(*)::int AS count,
              percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM t.at - u.since)) AS p
         FROM attempt_transitions t
         -- From the move into unknown this transition ends (an attempt can be in doubt twice: a late capture).
         CROSS JOIN LATERAL (SELECT max(e.at) AS since FROM attempt_transitions e WHERE e.attempt_id = t.attempt_id AND e.to_status = 'unknown' AND e.at <= t.at) u
        WHERE t.from_status = 'unknown' AND t.to_status IN ('succeeded', 'failed') AND u.since IS NOT NULL
          AND t.at >= date_trunc('hour', now()) - make_interval(hours => $1 - 1)
        GROUP BY 1, 2`,
      [hours],
    );
    const [{ now }] = await this.replica.query<{ now: number }>(TRENDS_STALENESS_TOLERATED_MS, `SELECT extract(epoch FROM date_trunc('hour', now()))::float8 AS now`);
    const axis = Array.from({ length: hours }, (_, i) => now - (hours - 1 - i) * 3600);
    const causes: Record<string, CertaintyPercentiles> = {};
    for (const cause of [...new Set(rows.map((row) => row.cause))].sort()) {
      const at = (hour: number) => rows.find((row) => row.cause === cause && row.hour === hour);
      const percentile = (i: number) => axis.map((hour) => (at(hour) ? Math.round(at(hour)!.p[i] * 10) / 10 : null));
      causes[cause] = { count: axis.map((hour) => at(hour)?.count ?? 0), p50: percentile(0), p90: percentile(1), p99: percentile(2) };
    }
    return { hours: axis, causes };
  }
}
