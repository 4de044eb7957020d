import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ScrapeTimeGauges, type ScrapeTimeGauge } from '@app/observability';
import { ReconciliationQueries } from './reconciliation-queries.service.js';

/** Whether reconciliation is keeping up: divergences nobody acknowledged, and the days each provider still owes. */
@Injectable()
export class ReconciliationGauges extends ScrapeTimeGauges {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: ReconciliationQueries,
  ) {
    super();
  }

  protected gauges(): ScrapeTimeGauge[] {
    return [
      {
        name: 'charge_once_reconciliation_open_divergences',
        help: 'Reconciliation divergences nobody has acknowledged yet, by kind',
        labelNames: ['kind'],
        read: async () =>
          (await this.db.query<Array<{ kind: string; n: number }>>(
            `SELECT kind, count(*)::int AS n FROM reconciliation_divergences WHERE status = 'open' GROUP BY kind`,
          )).map((row) => ({ labels: { kind: row.kind }, value: row.n })),
      },
      {
        name: 'charge_once_reconciliation_unreconciled_days',
        help: 'Days of the catch-up window (RECONCILIATION_CATCHUP_DAYS, ending yesterday) with no succeeded run, by provider',
        labelNames: ['provider'],
        read: async () => (await this.queries.openDays()).map((p) => ({ labels: { provider: p.provider }, value: p.days.length })),
      },
      {
        // Per day reconciled, not per run finished: a run of a later day never hides an earlier day still open.
        name: 'charge_once_reconciliation_last_success_timestamp_seconds',
        help: 'Every day of the catch-up window before this instant (unix seconds) has a succeeded run, by provider',
        labelNames: ['provider'],
        read: async () => (await this.queries.openDays()).map((p) => ({ labels: { provider: p.provider }, value: p.reconciledThrough.getTime() / 1000 })),
      },
      {
        name: 'charge_once_reconciliation_last_run_lines',
        help: 'Statement lines read by the last successful reconciliation run of each provider',
        labelNames: ['provider'],
        read: async () =>
          (await this.db.query<Array<{ provider: string; n: number }>>(
            `SELECT DISTINCT ON (provider) provider, lines_read AS n FROM reconciliation_runs WHERE status = 'succeeded' ORDER BY provider, finished_at DESC`,
          )).map((row) => ({ labels: { provider: row.provider }, value: row.n })),
      },
    ];
  }
}
