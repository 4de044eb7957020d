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
      {
        // What merchants have not been told yet: deliveries still pending, to live endpoints and to disabled ones.
        name: 'charge_once_undelivered_events',
        help: 'Webhook deliveries not yet answered 2xx, by whether their endpoint is enabled',
        labelNames: ['endpoint'],
        read: async () =>
          (await this.db.query<Array<{ endpoint: string; n: number }>>(
            `SELECT CASE WHEN e.enabled AND e.deleted_at IS NULL THEN 'enabled' ELSE 'disabled' END AS endpoint, count(*)::int AS n
               FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.state = 'pending' GROUP BY 1`,
          )).map((row) => ({ labels: { endpoint: row.endpoint }, value: row.n })),
      },
      {
        name: 'charge_once_oldest_undelivered_event_seconds',
        help: 'Age of the oldest pending webhook delivery to an enabled endpoint',
        read: async () => {
          const [row] = await this.db.query<Array<{ s: number | null }>>(
            `SELECT extract(epoch FROM now() - min(d.created_at))::float8 AS s
               FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
              WHERE d.state = 'pending' AND e.enabled AND e.deleted_at IS NULL`,
          );
          return [{ value: row.s ?? 0 }];
        },
      },
      {
        name: 'charge_once_failing_webhook_endpoints',
        help: 'Webhook endpoints failing now, or disabled by their receiver (410) or by failing for days, by state',
        labelNames: ['state'],
        read: async () =>
          (await this.db.query<Array<{ state: string; n: number }>>(
            `SELECT CASE WHEN enabled THEN 'failing' ELSE 'disabled_' || disabled_reason END AS state, count(*)::int AS n
               FROM webhook_endpoints
              WHERE deleted_at IS NULL AND (failing_since IS NOT NULL OR disabled_reason IN ('gone', 'failing')) GROUP BY 1`,
          )).map((row) => ({ labels: { state: row.state }, value: row.n })),
      },
    ];
  }
}
