import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { providerFirstDaySql } from '@app/database';
import { ReplicaReader } from '@app/database/replica';
import { GatewayRegistry } from '@app/gateways';
import { InvalidReconciliationDayError } from './reconciliation.errors.js';
import { addDays, isCalendarDay, previousDay } from './rules/reconciliation-day.js';
import { statementSourcesOf } from './statement.sources.js';
import { ReconciliationClock } from './reconciliation.clock.js';

/**
 * A day with no run at all is `missing`: the nightly job never reconciled it; unless it came before the service first
 * saw the provider (`before_service`, `providerFirstDaySql`): nothing of ours existed to reconcile, and the catch-up
 * never claims it.
 */
export type CalendarDayStatus = 'succeeded' | 'failed' | 'running' | 'missing' | 'before_service';

export interface CalendarDay {
  day: string;
  status: CalendarDayStatus;
  /** The run shown: a running one, else the latest that succeeded, else the latest that failed. */
  runId: string | null;
  /** Every run of the day (re-runs, failed tries). */
  runs: number;
  linesRead: number | null;
  matched: number | null;
  settled: number | null;
  divergences: Record<string, number>;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationSeconds: number | null;
  error: string | null;
}

/**
 * Replica lag the calendar accepts: a night's run takes minutes and is shown once a day; a minute behind misleads no
 * one. The catch-up that decides which days to run never reads this.
 */
const CALENDAR_STALENESS_TOLERATED_MS = 60_000;

/** The days reconciliation covered for one provider, newest first, from reconciliation_runs (on the replica). */
@Injectable()
export class ReconciliationCalendarQuery {
  constructor(
    private readonly replica: ReplicaReader,
    private readonly gateways: GatewayRegistry,
    private readonly config: AppConfig,
    private readonly clock: ReconciliationClock,
  ) {}

  /** Providers that have a statement to reconcile. */
  providers(): string[] {
    return this.gateways.attemptProviders().filter((provider) => statementSourcesOf(this.gateways, provider).length > 0);
  }

  /** `days` days ending on `to` (default: yesterday in RECONCILIATION_TZ, the last day the nightly job reconciles). */
  async days(provider: string, days: number, to?: string): Promise<{ provider: string; days: CalendarDay[] }> {
    statementSourcesOf(this.gateways, provider); // an unknown provider is refused, naming the known ones
    if (to !== undefined && !isCalendarDay(to)) throw new InvalidReconciliationDayError(to, 'to');
    const tz = this.config.RECONCILIATION_TZ;
    const last = to ?? previousDay(this.clock.now(), tz);
    const first = addDays(last, -(days - 1));
    const { rows, firstDay } = await this.replica.read(CALENDAR_STALENESS_TOLERATED_MS, async (read) => {
      const runs = await read<Record<string, unknown> & { day: string }>(
        `SELECT DISTINCT ON (day) to_char(day, 'YYYY-MM-DD') AS day, id, status, lines_read, matched, settled, divergence_counts, started_at, finished_at, error,
                count(*) OVER (PARTITION BY day)::int AS runs,
                extract(epoch FROM finished_at - started_at)::float8 AS duration
           FROM reconciliation_runs WHERE provider = $1 AND day BETWEEN $2::date AND $3::date
          ORDER BY day, CASE status WHEN 'running' THEN 0 WHEN 'succeeded' THEN 1 ELSE 2 END, started_at DESC, id`,
        [provider, first, last],
      );
      const [seen] = await read<{ firstDay: string | null }>(`SELECT to_char(${providerFirstDaySql('$1', '$2')}, 'YYYY-MM-DD') AS "firstDay"`, [provider, tz]);
      return { rows: runs, firstDay: seen.firstDay };
    });
    // Never seen: every day is before the service. Both YYYY-MM-DD: the text order is the calendar order.
    const beforeService = (day: string) => firstDay === null || day < firstDay;
    const byDay = new Map(rows.map((row) => [row.day, row]));
    const calendar = Array.from({ length: days }, (_, i) => {
      const day = addDays(last, -i);
      const run = byDay.get(day);
      if (!run) return { day, status: beforeService(day) ? ('before_service' as const) : ('missing' as const), runId: null, runs: 0, linesRead: null, matched: null, settled: null, divergences: {}, startedAt: null, finishedAt: null, durationSeconds: null, error: null };
      return {
        day,
        status: run.status as CalendarDayStatus,
        runId: run.id as string,
        runs: run.runs as number,
        linesRead: run.lines_read as number,
        matched: run.matched as number,
        settled: run.settled as number,
        divergences: run.divergence_counts as Record<string, number>,
        startedAt: run.started_at as Date,
        finishedAt: run.finished_at as Date | null,
        durationSeconds: run.duration === null ? null : Math.round((run.duration as number) * 10) / 10,
        error: run.error as string | null,
      };
    });
    return { provider, days: calendar };
  }

  /** Divergences found each night over the last `days` days, all providers together (the shown run of each day). */
  async divergencesPerNight(days: number): Promise<{ days: number[]; divergences: number[] }> {
    const last = previousDay(this.clock.now(), this.config.RECONCILIATION_TZ);
    const calendars = await Promise.all(this.providers().map((provider) => this.days(provider, days, last)));
    const axis = Array.from({ length: days }, (_, i) => addDays(last, -(days - 1 - i)));
    const count = (day: string) =>
      calendars.reduce((sum, calendar) => sum + Object.values(calendar.days.find((d) => d.day === day)?.divergences ?? {}).reduce((a, b) => a + b, 0), 0);
    return { days: axis.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), divergences: axis.map(count) };
  }
}
