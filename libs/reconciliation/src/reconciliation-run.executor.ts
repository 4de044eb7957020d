import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { GatewayRegistry, StatementNotYetAvailableError } from '@app/gateways';
import type { ClaimedRun } from './reconciliation-run.lease.js';
import { addDays, dayWindow } from './rules/reconciliation-day.js';
import { copyWholeStatement, createStagingTable, dropStagingTable, indexStagingTable } from './statement.staging.js';
import { CHARGE_STATEMENT_MATCHER } from './charge-statement.matcher.js';
import { PAYOUT_STATEMENT_MATCHER } from './payout-statement.matcher.js';
import { divergenceCountsOf, type MatchScope } from './statement.matching.js';
import { openStatement, statementReadEnd } from './statement.sources.js';
import { UnknownAttemptSettler } from './unknown-attempt.settler.js';
import { PayoutReturnsStep } from './payout-returns.step.js';
import { closeGapReviewItem } from '@app/review/items';
import { RunPhases } from './run-phases.js';
import { msInterval } from '@app/database';

/**
 * Runs one claimed reconciliation to the end: stream the statement into staging, settle unknown attempts,
 * record divergences, movements and refund proposals, then finish, all while renewing the lease. Every
 * step is idempotent; only the finish is fenced by `executions`, so a run taken over completes once.
 * No transaction spans the provider calls: the statement is read on a connection doing only COPY.
 */
@Injectable()
export class ReconciliationRunExecutor {
  private readonly logger = new Logger(ReconciliationRunExecutor.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly settler: UnknownAttemptSettler,
    private readonly returns: PayoutReturnsStep,
    private readonly config: AppConfig,
  ) {}

  /** Resolves when the run has finished, failed, or lost its lease (`stop` aborts it like a crash would). */
  async execute(run: ClaimedRun, stop?: AbortSignal): Promise<void> {
    const lost = new AbortController();
    const signal = stop ? AbortSignal.any([stop, lost.signal]) : lost.signal;
    const heartbeat = setInterval(() => {
      this.renew(run).then(
        (held) => held || lost.abort(new Error('lease lost')),
        (error: unknown) => this.logger.warn({ err: error, runId: run.id }, 'lease renewal failed'),
      );
    }, Math.max(100, Math.floor(this.config.RECONCILIATION_LEASE_MS / 3)));
    const runner = this.db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      const outcome = await this.steps(client, run, signal);
      if (await this.finish(run, outcome)) this.logger.log({ runId: run.id, provider: run.provider, day: run.day, ...outcome }, 'reconciliation run succeeded');
    } catch (error) {
      // A stopped or superseded executor writes nothing more: the lease expires and another worker takes over.
      if (signal.aborted) this.logger.warn({ runId: run.id, reason: String(signal.reason) }, 'reconciliation run stopped');
      else if (error instanceof StatementNotYetAvailableError) await this.end(run, 'waiting', error);
      else await this.end(run, 'failed', error);
    } finally {
      clearInterval(heartbeat);
      await runner.release();
    }
  }

  private async steps(client: PoolClient, run: ClaimedRun, signal: AbortSignal) {
    const window = dayWindow(run.day, this.config.RECONCILIATION_TZ);
    const scope: MatchScope = { runId: run.id, provider: run.provider, day: run.day, window };
    const phases = new RunPhases();
    const earlierDays = Array.from({ length: this.config.RECONCILIATION_PIX_RETURNS_DAYS }, (_, i) => dayWindow(addDays(run.day, -1 - i), this.config.RECONCILIATION_TZ));
    const open = () =>
      openStatement(
        this.gateways,
        run.provider,
        {
          from: window.start,
          to: statementReadEnd(this.gateways, run.provider, window.end, this.config.RECONCILIATION_MARGIN_MS),
          source: run.source,
          requestKey: `reconciliation-${run.id}`,
          signal,
          timing: phases,
        },
        earlierDays,
        (earlier, error) => this.logger.warn({ runId: run.id, provider: run.provider, from: earlier.start, err: error }, "an earlier day's sent Pix could not be read for returns; the next nights read it again while it is within RECONCILIATION_PIX_RETURNS_DAYS, or run that day again"),
      );
    const payouts = open().subject === 'payouts';
    const matcher = payouts ? PAYOUT_STATEMENT_MATCHER : CHARGE_STATEMENT_MATCHER;
    await createStagingTable(client);
    try {
      const linesRead = await copyWholeStatement(client, () => open().lines);
      phases.lapStreamedRead();
      signal.throwIfAborted();
      await indexStagingTable(client);
      phases.lap('index');
      const candidates = await matcher.findSettleCandidates(client, scope);
      phases.lap('match');
      for (const candidate of candidates) {
        signal.throwIfAborted();
        await this.settler.settle(run.id, run.provider, candidate);
      }
      phases.lap('settle');
      signal.throwIfAborted();
      const matched = await matcher.recordLineDivergences(client, scope);
      await matcher.recordMissingAtProvider(client, scope);
      if (matcher.recordMoneyMovements) await matcher.recordMoneyMovements(client, scope);
      // After the settling: a transfer this run proved executed can have its returns credited in the same run.
      if (payouts) await this.returns.run(client, scope);
      const divergences = await divergenceCountsOf(client, run.id);
      phases.lap('divergences');
      return { linesRead, matched, divergences, phasesMs: phases.rounded() };
    } finally {
      await dropStagingTable(client).catch(() => undefined);
    }
  }

  private async renew(run: ClaimedRun): Promise<boolean> {
    const [rows] = await this.db.query<[unknown[], number]>(
      `UPDATE reconciliation_runs SET lease_expires_at = now() + ${msInterval('$3')}
        WHERE id = $1 AND status = 'running' AND executions = $2 RETURNING id`,
      [run.id, run.executions, this.config.RECONCILIATION_LEASE_MS],
    );
    return rows.length === 1;
  }

  /** Succeeds the run and, in the same commit, closes the review item of its day if that day had become a gap. */
  private async finish(run: ClaimedRun, outcome: { linesRead: number; matched: number; divergences: Record<string, number>; phasesMs: Record<string, number> }): Promise<boolean> {
    const finished = await this.db.transaction(async (em) => {
      const [rows] = await em.query<[unknown[], number]>(
        `UPDATE reconciliation_runs
            SET status = 'succeeded', lines_read = $3, matched = $4, divergence_counts = $5, finished_at = now(),
                lease_owner = NULL, lease_expires_at = NULL
          WHERE id = $1 AND status = 'running' AND executions = $2 RETURNING id`,
        [run.id, run.executions, outcome.linesRead, outcome.matched, JSON.stringify(outcome.divergences)],
      );
      if (rows.length === 1) await closeGapReviewItem(em, run);
      return rows.length === 1;
    });
    if (!finished) this.logger.warn({ runId: run.id }, 'reconciliation run finished by another executor');
    return finished;
  }

  /** `failed`, or `waiting` when the provider has not made the day available yet (not a failure: no backoff). */
  private async end(run: ClaimedRun, status: 'failed' | 'waiting', error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const context = { runId: run.id, provider: run.provider, day: run.day };
    if (status === 'failed') this.logger.error({ ...context, err: error }, 'reconciliation run failed');
    else this.logger.log({ ...context, reason: message }, 'reconciliation run waits for the provider\'s data');
    await this.db.query(
      `UPDATE reconciliation_runs SET status = $3, error = $4, finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1 AND status = 'running' AND executions = $2`,
      [run.id, run.executions, status, message.slice(0, 2000)],
    );
  }
}
