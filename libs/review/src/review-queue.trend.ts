import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export interface ReviewQueueTrend {
  /** Sample instants (unix seconds), one an hour, the last one now. */
  hours: number[];
  /** Items not yet closed at each instant (open, claimed or awaiting a second reviewer). */
  open: number[];
  /** Age of the oldest of them, in minutes; null when the queue was empty. */
  oldestAgeMinutes: Array<number | null>;
}

/** How big and how old the review queue was, hour by hour, from the items' own open and close times. */
@Injectable()
export class ReviewQueueTrendQuery {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async lastHours(hours: number): Promise<ReviewQueueTrend> {
    const rows = await this.db.query<Array<{ at: number; open: number; oldest: number | null }>>(
      `SELECT extract(epoch FROM s.at)::float8 AS at, count(r.id)::int AS open,
              round((extract(epoch FROM s.at - min(r.created_at)) / 60)::numeric, 1)::float8 AS oldest
         FROM generate_series(now() - make_interval(hours => $1 - 1), now(), interval '1 hour') AS s(at)
         LEFT JOIN review_items r ON r.created_at <= s.at AND (r.closed_at IS NULL OR r.closed_at > s.at)
        GROUP BY s.at ORDER BY s.at`,
      [hours],
    );
    return { hours: rows.map((r) => Math.round(r.at)), open: rows.map((r) => r.open), oldestAgeMinutes: rows.map((r) => r.oldest) };
  }
}
