import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { metricsRegistry, scrapeSafely } from '@app/observability';

const GAUGES = ['charge_once_review_items_waiting', 'charge_once_review_item_oldest_seconds'] as const;

/** The queue as finance sees it, read from the database at scrape time: items waiting by reason and state, and their age. */
@Injectable()
export class ReviewQueueGauges implements OnModuleInit, OnModuleDestroy {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onModuleInit(): void {
    const db = this.db;
    this.onModuleDestroy();
    const read = () =>
      db.query<Array<{ reason: string; state: string; n: number; oldest_s: number }>>(
        `SELECT reason, CASE WHEN state = 'claimed' AND claim_expires_at <= now() THEN 'open' ELSE state END AS state,
                count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS oldest_s
           FROM review_items WHERE state <> 'closed' GROUP BY 1, 2`,
      );
    new Gauge({
      name: GAUGES[0],
      help: 'Review items not yet closed, by reason and state',
      labelNames: ['reason', 'state'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        for (const row of await read()) this.set({ reason: row.reason, state: row.state }, row.n);
      }),
    });
    new Gauge({
      name: GAUGES[1],
      help: 'Age of the oldest review item not yet closed, by reason and state',
      labelNames: ['reason', 'state'],
      registers: [metricsRegistry],
      collect: scrapeSafely(async function (this: Gauge) {
        this.reset();
        for (const row of await read()) this.set({ reason: row.reason, state: row.state }, row.oldest_s);
      }),
    });
  }

  /** The registry is per process, and tests build several apps in one process. */
  onModuleDestroy(): void {
    for (const name of GAUGES) metricsRegistry.removeSingleMetric(name);
  }
}
