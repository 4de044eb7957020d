import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ScrapeTimeGauges, type ScrapeTimeGauge } from './scrape-time.gauges.js';

/** What is still uncertain: open attempts by status, how long the oldest has been unknown, and review items waiting. */
@Injectable()
export class OpenWorkGauges extends ScrapeTimeGauges {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  protected gauges(): ScrapeTimeGauge[] {
    return [
      {
        name: 'charge_once_open_attempts',
        help: 'Attempts not yet succeeded or failed, by status',
        labelNames: ['status'],
        read: async () =>
          (await this.db.query<Array<{ status: string; n: number }>>(
            `SELECT status, count(*)::int AS n FROM attempts WHERE status IN ('pending','unknown') GROUP BY status`,
          )).map((row) => ({ labels: { status: row.status }, value: row.n })),
      },
      {
        name: 'charge_once_oldest_unknown_attempt_seconds',
        help: 'How long the oldest unknown attempt has been unknown',
        read: async () => {
          const [row] = await this.db.query<Array<{ s: number | null }>>(
            `SELECT extract(epoch FROM now() - min(unknown_since))::float8 AS s FROM attempts WHERE status = 'unknown'`,
          );
          return [{ value: row.s ?? 0 }];
        },
      },
      {
        name: 'charge_once_open_review_items',
        help: 'Review items waiting for a person',
        read: async () => {
          const [row] = await this.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM review_items WHERE state <> 'closed'`);
          return [{ value: row.n }];
        },
      },
    ];
  }
}
