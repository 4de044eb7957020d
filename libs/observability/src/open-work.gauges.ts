import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { metricsRegistry, scrapeSafely } from './metrics.js';

/**
 * What is still uncertain, read from the database at scrape time (the source of truth, whichever process is
 * scraped): open attempts by status, how long the oldest has been unknown, and review items waiting.
 */
const GAUGES = ['charge_once_open_attempts', 'charge_once_oldest_unknown_attempt_seconds', 'charge_once_open_review_items'] as const;

@Injectable()
export class OpenWorkGauges implements OnModuleInit, OnModuleDestroy {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onModuleInit(): void {
    const db = this.db;
    this.onModuleDestroy();
    new Gauge({
      name: GAUGES[0],
      help: 'Attempts not yet succeeded or failed, by status',
      labelNames: ['status'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        const rows = await db.query<Array<{ status: string; n: number }>>(
          `SELECT status, count(*)::int AS n FROM charge_attempts WHERE status IN ('pending','unknown') GROUP BY status`,
        );
        for (const row of rows) this.set({ status: row.status }, row.n);
      }),
    });
    new Gauge({
      name: GAUGES[1],
      help: 'How long the oldest unknown attempt has been unknown',
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        const [row] = await db.query<Array<{ s: number | null }>>(
          `SELECT extract(epoch FROM now() - min(unknown_since))::float8 AS s FROM charge_attempts WHERE status = 'unknown'`,
        );
        this.set(row.s ?? 0);
      }),
    });
    new Gauge({
      name: GAUGES[2],
      help: 'Review items waiting for a person',
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        const [row] = await db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM review_items WHERE state <> 'closed'`);
        this.set(row.n);
      }),
    });
  }

  /** The registry is per process, and tests build several apps in one process. */
  onModuleDestroy(): void {
    for (const name of GAUGES) metricsRegistry.removeSingleMetric(name);
  }
}
