import { msInterval } from './ms-interval.sql.js';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Scheduled work runs once per interval however many workers tick: each tick tries to move the job's
 * `last_started_at` forward with a conditional upsert, and only the worker whose write lands runs.
 * It lives in PostgreSQL, not Redis, because the sweeper is what recovers from a Redis that lost everything.
 */
@Injectable()
export class ScheduledRunClaim {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async tryStart(name: string, intervalMs: number): Promise<boolean> {
    const rows = await this.db.query<unknown[]>(
      `INSERT INTO scheduled_runs (name, last_started_at) VALUES ($1, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = now()
        WHERE scheduled_runs.last_started_at <= now() - ${msInterval('$2')}
       RETURNING name`,
      [name, intervalMs * 0.9],
    );
    return rows.length === 1;
  }
}
