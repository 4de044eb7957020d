import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { metricsRegistry, scrapeSafely } from '@app/observability';

const GAUGES = [
  'charge_once_reconciliation_open_divergences',
  'charge_once_reconciliation_last_success_timestamp_seconds',
  'charge_once_reconciliation_last_run_lines',
] as const;

/** Read from the database at scrape time, like the open-work gauges: the same answer from any process. */
@Injectable()
export class ReconciliationGauges implements OnModuleInit, OnModuleDestroy {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onModuleInit(): void {
    const db = this.db;
    this.onModuleDestroy();
    new Gauge({
      name: GAUGES[0],
      help: 'Reconciliation divergences nobody has acknowledged yet, by kind',
      labelNames: ['kind'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        const rows = await db.query<Array<{ kind: string; n: number }>>(
          `SELECT kind, count(*)::int AS n FROM reconciliation_divergences WHERE status = 'open' GROUP BY kind`,
        );
        for (const row of rows) this.set({ kind: row.kind }, row.n);
      }),
    });
    new Gauge({
      name: GAUGES[1],
      help: 'When the last successful reconciliation run of each provider finished (unix seconds)',
      labelNames: ['provider'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        const rows = await db.query<Array<{ provider: string; s: number }>>(
          `SELECT provider, extract(epoch FROM max(finished_at))::float8 AS s FROM reconciliation_runs WHERE status = 'succeeded' GROUP BY provider`,
        );
        for (const row of rows) this.set({ provider: row.provider }, row.s);
      }),
    });
    new Gauge({
      name: GAUGES[2],
      help: 'Statement lines read by the last successful reconciliation run of each provider',
      labelNames: ['provider'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        const rows = await db.query<Array<{ provider: string; n: number }>>(
          `SELECT DISTINCT ON (provider) provider, lines_read AS n FROM reconciliation_runs WHERE status = 'succeeded' ORDER BY provider, finished_at DESC`,
        );
        for (const row of rows) this.set({ provider: row.provider }, row.n);
      }),
    });
  }

  /** The registry is per process, and tests build several apps in one process. */
  onModuleDestroy(): void {
    for (const name of GAUGES) metricsRegistry.removeSingleMetric(name);
  }
}
