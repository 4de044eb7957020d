import { Injectable } from '@nestjs/common';
import { ReplicaReader } from '@app/database/replica';

export interface ReviewQueueTrend {
  /** Sample instants (unix seconds), one an hour, the last one now. */
  hours: number[];
  /** Items not yet closed at each instant (open, claimed or awaiting a second reviewer). */
  open: number[];
  /** Age of the oldest of them, in minutes; null when the queue was empty. */
  oldestAgeMinutes: Array<number | null>;
}

/** Replica lag this chart accepts: hourly samples, read by a person, never acted on (the queue itself reads the primary). */
const QUEUE_TREND_STALENESS_TOLERATED_MS = 30_000;

/** How big and how old the review queue was, hour by hour, from the items' own open and close times (on the replica). */
@Injectable()
export class ReviewQueueTrendQuery {
  constructor(private readonly replica: ReplicaReader) {}

  async lastHours(hours: number): Promise<ReviewQueueTrend> {
    const rows = await this.replica.query<{ at: number; open: number; oldest: number | null }>(
      QUEUE_TREND_STALENESS_TOLERATED_MS,
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
