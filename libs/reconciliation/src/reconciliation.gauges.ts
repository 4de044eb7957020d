import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ScrapeTimeGauges, type ScrapeTimeGauge } from '@app/observability';

/** Whether reconciliation is keeping up: divergences nobody acknowledged, and each provider's last good run. */
@Injectable()
export class ReconciliationGauges extends ScrapeTimeGauges {
  constructor(@InjectDataSource() private readonly db: DataSource) {
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
        name: 'charge_once_reconciliation_last_success_timestamp_seconds',
        help: 'When the last successful reconciliation run of each provider finished (unix seconds)',
        labelNames: ['provider'],
        read: async () =>
          (await this.db.query<Array<{ provider: string; s: number }>>(
            `SELECT provider, extract(epoch FROM max(finished_at))::float8 AS s FROM reconciliation_runs WHERE status = 'succeeded' GROUP BY provider`,
          )).map((row) => ({ labels: { provider: row.provider }, value: row.s })),
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
