import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ScrapeTimeGauges, type ScrapeTimeGauge } from '@app/observability';

/** The queue as finance sees it: items waiting by reason and state, and their age. */
@Injectable()
export class ReviewQueueGauges extends ScrapeTimeGauges {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  protected gauges(): ScrapeTimeGauge[] {
    const waiting = () =>
      this.db.query<Array<{ reason: string; state: string; n: number; oldest_s: number }>>(
        `SELECT reason, CASE WHEN state = 'claimed' AND claim_expires_at <= now() THEN 'open' ELSE state END AS state,
                count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS oldest_s
           FROM review_items WHERE state <> 'closed' GROUP BY 1, 2`,
      );
    return [
      {
        name: 'charge_once_review_items_waiting',
        help: 'Review items not yet closed, by reason and state',
        labelNames: ['reason', 'state'],
        read: async () => (await waiting()).map((row) => ({ labels: { reason: row.reason, state: row.state }, value: row.n })),
      },
      {
        name: 'charge_once_review_item_oldest_seconds',
        help: 'Age of the oldest review item not yet closed, by reason and state',
        labelNames: ['reason', 'state'],
        read: async () => (await waiting()).map((row) => ({ labels: { reason: row.reason, state: row.state }, value: row.oldest_s })),
      },
    ];
  }
}
