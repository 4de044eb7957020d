import type { EntityManager } from 'typeorm';
import { providerFirstDaySql } from '@app/database';

/** A day of the catch-up window with no succeeded run, with what its tries came to so far. */
export interface UnreconciledDay {
  day: string;
  /** A run of the day is in progress now. */
  running: boolean;
  /** The latest run's status (`failed`, `waiting`, `running`), or null when the day was never tried. */
  lastStatus: string | null;
  lastError: string | null;
  /** Scheduled runs of the day that failed, and when the last of them finished: the backoff's input. */
  failedRuns: number;
  lastFailedAt: Date | null;
}

/**
 * Every day of the `days`-day window ending at `lastDay` with no succeeded run of `provider`, oldest first: what a
 * tick catches up, what the unreconciled-days gauge counts and what the console lists. Uses the (provider, day) index.
 * Only from the day the service first saw the provider (`providerFirstDaySql`, in `timeZone`): before it
 * there is nothing of ours to reconcile, and a provider never seen has no open day at all.
 */
export async function unreconciledDays(em: EntityManager, provider: string, lastDay: string, days: number, timeZone: string): Promise<UnreconciledDay[]> {
  const rows = await em.query<Array<{ day: string; running: boolean; last_status: string | null; last_error: string | null; failed_runs: number; last_failed_at: Date | null }>>(
    `SELECT d::date::text AS day, coalesce(s.running, false) AS running, l.status AS last_status, l.error AS last_error,
            s.failed_runs, s.last_failed_at
       FROM generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') d
      CROSS JOIN LATERAL (
            SELECT bool_or(r.status = 'succeeded') AS succeeded, bool_or(r.status = 'running') AS running,
                   count(*) FILTER (WHERE r.trigger = 'scheduled' AND r.status = 'failed')::int AS failed_runs,
                   max(r.finished_at) FILTER (WHERE r.trigger = 'scheduled' AND r.status = 'failed') AS last_failed_at
              FROM reconciliation_runs r WHERE r.provider = $1 AND r.day = d::date) s
       LEFT JOIN LATERAL (
            SELECT r.status, r.error FROM reconciliation_runs r WHERE r.provider = $1 AND r.day = d::date
             ORDER BY r.started_at DESC, r.id DESC LIMIT 1) l ON true
      WHERE NOT coalesce(s.succeeded, false)
        AND d::date >= ${providerFirstDaySql('$1', '$4')}
      ORDER BY d`,
    [provider, lastDay, days, timeZone],
  );
  return rows.map((r) => ({
    day: r.day,
    running: r.running,
    lastStatus: r.last_status,
    lastError: r.last_error,
    failedRuns: r.failed_runs,
    lastFailedAt: r.last_failed_at,
  }));
}
