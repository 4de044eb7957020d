import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReplicaReader } from '@app/database/replica';
import { PING_EVENT_TYPE, type EventType, type MerchantEvent } from '../event-types.js';
import { decodeFeedCursor, encodeFeedCursor, type FeedPosition } from './feed-cursor.js';
import { EventNotFoundError } from './feed.errors.js';

export const FEED_PAGE_DEFAULT = 20;
export const FEED_PAGE_MAX = 100;
/** How far back the feed lists, as Stripe's /v1/events does. */
export const FEED_WINDOW_DAYS = 30;
/** A page whose events are all older than this is history, which a standby may serve; younger is the feed's head. */
const FEED_HISTORY_AFTER_MS = 60_000;
/** How far behind the standby may be for a page of history. */
const HISTORY_STALENESS_TOLERATED_MS = 5_000;

export interface FeedPage {
  data: MerchantEvent[];
  /** Pass as `after` for the next page; the same cursor again while nothing new has committed. */
  nextCursor: string | null;
  hasMore: boolean;
}

interface EventRow {
  id: string;
  type: MerchantEvent['type'];
  created_at: Date;
  merchant_id: string;
  object_version: number;
  object: Record<string, unknown>;
  xact_id: string;
  seq: string;
}

/**
 * The feed never skips, because it reads only what can no longer be overtaken. A `seq` is taken when a row is
 * written, not when it commits: a transaction holding seq 10 may commit after one holding seq 11, so a cursor at 11
 * would never see 10. Here a page holds only events of transactions older than the oldest one still running
 * (`xact_id < pg_snapshot_xmin`, all of them finished, so every committed one is visible), in (xact_id, seq) order.
 * Any event committed later belongs to a transaction at or past that horizon, which sorts after every event already
 * read. The price: a transaction left open holds the feed back until it ends.
 */
const PAGE_SQL = `
  SELECT id, type, created_at, merchant_id, object_version, object, xact_id::text AS xact_id, seq::text AS seq
    FROM events
   WHERE merchant_id = $1
     AND xact_id < pg_snapshot_xmin(pg_current_snapshot())
     AND (xact_id, seq) > ($2::xid8, $3::bigint)
     AND type <> '${PING_EVENT_TYPE}'
     AND created_at > now() - make_interval(days => ${FEED_WINDOW_DAYS})
     AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
   ORDER BY xact_id, seq
   LIMIT $5`;

@Injectable()
export class EventFeedQuery {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly replica: ReplicaReader,
  ) {}

  /**
   * `merchantId` always in the SQL: a merchant's feed holds its own events only. A client paging through history (its
   * cursor's event older than FEED_HISTORY_AFTER_MS) is served by the standby (DATABASE_REPLICA_URL) when the standby
   * is fresh enough and its page is full and all older than that too; the feed's head is always the primary's. A
   * standby's snapshot has a horizon of its own (what it has replayed), so its page never skips either: it may only end sooner.
   */
  async page(merchantId: string, options: { after?: string; types: EventType[] | null; limit: number }): Promise<FeedPage> {
    // No cursor: from the start of the window ((0, 0) sorts before every event).
    const from = options.after === undefined ? null : decodeFeedCursor(options.after);
    const params = [merchantId, from?.xactId ?? '0', from?.seq ?? '0', options.types, options.limit + 1];
    if (isHistory(from, Date.now())) {
      const rows = await this.replica.query<EventRow>(HISTORY_STALENESS_TOLERATED_MS, PAGE_SQL, params);
      if (rows.length > options.limit && rows.every((row) => isHistory({ createdAtMs: row.created_at.getTime() }, Date.now()))) return toPage(rows, options);
    }
    return toPage(await this.db.query<EventRow[]>(PAGE_SQL, params), options);
  }

  /** One event by id; `merchantId` null (a reviewer or admin) reads any merchant's. */
  async get(id: string, merchantId: string | null): Promise<MerchantEvent> {
    const [row] = await this.db.query<EventRow[]>(
      `SELECT id, type, created_at, merchant_id, object_version, object, xact_id::text AS xact_id, seq::text AS seq
         FROM events WHERE id = $1 AND ($2::uuid IS NULL OR merchant_id = $2)`,
      [id, merchantId],
    );
    if (!row) throw new EventNotFoundError(id);
    return toMerchantEvent(row);
  }
}

function isHistory(position: Pick<FeedPosition, 'createdAtMs'> | null, now: number): boolean {
  return position?.createdAtMs !== undefined && position.createdAtMs < now - FEED_HISTORY_AFTER_MS;
}

function toPage(rows: EventRow[], options: { after?: string; limit: number }): FeedPage {
  const data = rows.slice(0, options.limit);
  const last = data.at(-1);
  return {
    data: data.map(toMerchantEvent),
    nextCursor: last ? encodeFeedCursor({ xactId: last.xact_id, seq: last.seq, createdAtMs: last.created_at.getTime() }) : (options.after ?? null),
    hasMore: rows.length > options.limit,
  };
}

function toMerchantEvent(row: EventRow): MerchantEvent {
  return {
    id: row.id,
    type: row.type,
    createdAt: row.created_at.toISOString(),
    merchantId: row.merchant_id,
    objectVersion: row.object_version,
    data: { object: row.object },
  };
}
