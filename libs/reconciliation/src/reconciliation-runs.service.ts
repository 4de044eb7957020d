import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { isUniqueViolation, msInterval } from '@app/database';
import { GatewayRegistry, StatementUnsupportedError, type StatementSource } from '@app/gateways';
import { ReconciliationRunJobs } from '@app/queues';
import { InvalidReconciliationDayError, ReconciliationRunRunningError, RunDayNotClosedError } from './reconciliation.errors.js';
import { ReconciliationClock } from './reconciliation.clock.js';
import { CLAIMED_COLUMNS, LEASE_OWNER, type ClaimedRun } from './reconciliation-run.lease.js';
import { ReconciliationRunExecutor } from './reconciliation-run.executor.js';
import { addDays, isCalendarDay, isDayClosed, previousDay } from './rules/reconciliation-day.js';
import { isDayDue } from './rules/day-retry.js';
import { openGapReviewItems } from '@app/review/items';
import { unreconciledDays } from './unreconciled-days.query.js';
import { statementSourceFor } from './rules/statement-source.js';
import { statementSourcesOf } from './statement.sources.js';

export interface RunRequest {
  provider: string;
  day: string;
  source?: StatementSource;
  requestedBy: string;
}

/**
 * Starting runs. Who runs what is decided by PostgreSQL alone: a conditional insert claims a day (the unique
 * indexes allow one scheduled run per provider and day, and one running run of a day at a time), and a
 * conditional update takes over a run whose lease has expired. Redis only carries an on-demand run to a worker;
 * losing that job delays the run by a lease, never decides who runs it.
 */
@Injectable()
export class ReconciliationRunsService implements OnApplicationShutdown {
  private readonly logger = new Logger(ReconciliationRunsService.name);
  private readonly inFlight = new Map<string, { done: Promise<void>; stop: AbortController }>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly executor: ReconciliationRunExecutor,
    private readonly gateways: GatewayRegistry,
    private readonly config: AppConfig,
    private readonly jobs: ReconciliationRunJobs,
    private readonly clock: ReconciliationClock,
  ) {}

  /**
   * On demand: claims the day now (409 if it is already running) and queues the run to a worker. The row is
   * claimed by no executor yet (`executions` 0) and its lease is the deadline for a worker to claim it: a job
   * Redis lost is taken over by a worker's expired-lease sweep like the run of a dead executor.
   */
  async request(input: RunRequest): Promise<{ id: string; status: 'running' }> {
    this.validate(input);
    const run = await this.insertRun(input, 'manual');
    if (!run) {
      const [running] = await this.db.query<Array<{ id: string }>>(
        `SELECT id FROM reconciliation_runs WHERE provider = $1 AND day = $2 AND status = 'running'`,
        [input.provider, input.day],
      );
      // The running run may have finished in between; asking again is then fine.
      if (!running) return this.request(input);
      throw new ReconciliationRunRunningError(running.id, input.provider, input.day);
    }
    await this.jobs.schedule(run.id).catch((error: unknown) => this.logger.warn({ err: error, runId: run.id }, 'reconciliation run not queued; a worker takes it over when its lease expires'));
    return { id: run.id, status: 'running' };
  }

  /** A worker's half of an on-demand run: claims it unless an executor already has (a duplicate or late job), and runs it. */
  async runQueued(runId: string): Promise<void> {
    const [rows] = await this.db.query<[ClaimedRun[], number]>(
      `UPDATE reconciliation_runs SET lease_owner = $2, lease_expires_at = now() + ${msInterval('$3')}, executions = 1
        WHERE id = $1 AND status = 'running' AND executions = 0
        RETURNING ${CLAIMED_COLUMNS}`,
      [runId, LEASE_OWNER, this.config.RECONCILIATION_LEASE_MS],
    );
    if (rows[0]) await this.start(rows[0]);
  }

  /** The nightly job: the first worker whose insert lands runs the day; the others get null. */
  async runScheduled(provider: string, day: string): Promise<string | null> {
    this.assertClosed(day, 'day');
    const source = statementSourceFor(this.config.RECONCILIATION_SOURCE as StatementSource, statementSourcesOf(this.gateways, provider));
    if (!source) return null;
    const run = await this.insertRun({ provider, day, source, requestedBy: 'scheduler' }, 'scheduled');
    if (!run) return null;
    await this.start(run);
    return run.id;
  }

  /**
   * Every day of the catch-up window up to `lastDay` (yesterday) that has no succeeded run of this provider, oldest
   * first, from the provider's first day (`providerFirstDaySql`: before it there is nothing of ours to reconcile),
   * each claimed and run like the nightly day: a failed or missed night is reconciled at a later tick, a failed day only once its backoff has passed (a day waiting for the provider's data is asked again at once). A day that
   * has left the window unreconciled becomes a review item. Returns the days run now.
   */
  async catchUp(provider: string, lastDay: string, options: { triedOnly?: boolean } = {}): Promise<string[]> {
    this.assertClosed(lastDay, 'lastDay');
    const days = this.config.RECONCILIATION_CATCHUP_DAYS;
    await openGapReviewItems(this.db.manager, {
      provider,
      windowStart: addDays(lastDay, 1 - days),
      lookbackDays: this.config.RECONCILIATION_GAP_LOOKBACK_DAYS,
      timeZone: this.config.RECONCILIATION_TZ,
    });
    const [{ now }] = await this.db.query<Array<{ now: Date }>>(`SELECT now()`);
    const ran: string[] = [];
    for (const open of await unreconciledDays(this.db.manager, provider, lastDay, days, this.config.RECONCILIATION_TZ)) {
      if (open.running || !isDayDue(open, now, this.config.RECONCILIATION_RETRY_BACKOFF_MS)) continue;
      // The retry tick only asks again for days already tried (failed, or waiting for the provider's data); a day
      // never tried waits for the nightly tick, which runs when the day is safely over.
      if (options.triedOnly && open.lastStatus === null) continue;
      if (await this.runScheduled(provider, open.day)) ran.push(open.day);
    }
    return ran;
  }

  /** Takes over one run whose executor stopped renewing its lease (it died), and completes it. */
  async takeOverExpired(): Promise<string | null> {
    const [rows] = await this.db.query<[ClaimedRun[], number]>(
      `UPDATE reconciliation_runs
          SET lease_owner = $1, lease_expires_at = now() + ${msInterval('$2')}, executions = executions + 1
        WHERE id = (SELECT id FROM reconciliation_runs WHERE status = 'running' AND lease_expires_at < now()
                     ORDER BY started_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND status = 'running' AND lease_expires_at < now()
        RETURNING ${CLAIMED_COLUMNS}`,
      [LEASE_OWNER, this.config.RECONCILIATION_LEASE_MS],
    );
    const run = rows[0];
    if (!run) return null;
    this.logger.warn({ runId: run.id, provider: run.provider, day: run.day, executions: run.executions }, 'taking over a reconciliation run whose lease expired');
    await this.start(run);
    return run.id;
  }

  /** Stops this process's runs as a crash would: their leases expire and another worker completes them. */
  async onApplicationShutdown(): Promise<void> {
    for (const { stop } of this.inFlight.values()) stop.abort(new Error('shutting down'));
    await Promise.all([...this.inFlight.values()].map((r) => r.done));
  }

  private start(run: ClaimedRun): Promise<void> {
    const stop = new AbortController();
    const done = this.executor
      .execute(run, stop.signal)
      .catch((error: unknown) => this.logger.error({ err: error, runId: run.id }, 'reconciliation executor crashed'))
      .finally(() => this.inFlight.delete(run.id));
    this.inFlight.set(run.id, { done, stop });
    return done;
  }

  /** A manual run waits for a worker to claim it (no owner, no execution yet); a scheduled one is claimed by its inserter. */
  private async insertRun(input: RunRequest, trigger: 'manual' | 'scheduled'): Promise<ClaimedRun | null> {
    const claimed = trigger === 'scheduled';
    try {
      const rows = await this.db.query<ClaimedRun[]>(
        `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, lease_owner, lease_expires_at, executions)
         VALUES ($1, $2, $3, $4, $5, 'running', $6, $7, now() + ${msInterval('$8')}, $9)
         ON CONFLICT DO NOTHING
         RETURNING ${CLAIMED_COLUMNS}`,
        [randomUUID(), input.provider, input.day, trigger, input.source ?? 'api', input.requestedBy, claimed ? LEASE_OWNER : null, this.config.RECONCILIATION_LEASE_MS, claimed ? 1 : 0],
      );
      return rows[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  private validate(input: RunRequest): void {
    if (!isCalendarDay(input.day)) throw new InvalidReconciliationDayError(input.day);
    this.assertClosed(input.day, 'date');
    const offered = statementSourcesOf(this.gateways, input.provider);
    // Refused now, not as a run that fails in the background.
    if (!offered.includes(input.source ?? 'api')) throw new StatementUnsupportedError(input.provider, input.source ?? 'api');
  }

  /** The nightly job's own rule, for every way a run starts: a day is read once it has ended in RECONCILIATION_TZ. */
  private assertClosed(day: string, field: string): void {
    const now = this.clock.now();
    const tz = this.config.RECONCILIATION_TZ;
    if (!isDayClosed(day, now, tz)) throw new RunDayNotClosedError(day, previousDay(now, tz), tz, field);
  }
}
