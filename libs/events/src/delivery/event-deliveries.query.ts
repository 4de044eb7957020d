import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { merchantScope, type Actor } from '@app/auth';
import { EventNotFoundError } from '../feed/feed.errors.js';

export interface DeliveryTryView {
  attempt: number;
  startedAt: string;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  /** The first 1 KiB of what the receiver answered. */
  responseExcerpt: string | null;
}

export interface EventDeliveryView {
  endpointId: string;
  url: string;
  state: 'pending' | 'delivered' | 'abandoned';
  attempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  tries: DeliveryTryView[];
}

/** An event's deliveries, one per endpoint that wanted it, each with every try. Scoped by merchant in the SQL. */
@Injectable()
export class EventDeliveries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async of(actor: Actor, eventId: string): Promise<EventDeliveryView[]> {
    const rows = await this.db.query<Array<EventDeliveryView & { exists: boolean }>>(
      `SELECT d.endpoint_id AS "endpointId", w.url, d.state, d.attempts,
              CASE WHEN d.state = 'pending' THEN d.next_attempt_at END AS "nextAttemptAt", d.delivered_at AS "deliveredAt",
              COALESCE((SELECT jsonb_agg(jsonb_build_object('attempt', t.attempt, 'startedAt', t.started_at, 'durationMs', t.duration_ms,
                                 'httpStatus', t.http_status, 'error', t.error, 'responseExcerpt', t.response_excerpt) ORDER BY t.attempt)
                          FROM webhook_delivery_attempts t WHERE t.delivery_id = d.id), '[]'::jsonb) AS tries
         FROM events e JOIN webhook_deliveries d ON d.event_id = e.id JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE e.id = $1 AND ($2::uuid IS NULL OR e.merchant_id = $2)
        ORDER BY d.id`,
      [eventId, merchantScope(actor)],
    );
    if (rows.length === 0) await this.mustExist(actor, eventId);
    return rows;
  }

  /**
   * Sends the event again to every endpoint that had it, delivered ones too: a new try under the same webhook-id,
   * so a receiver that deduplicates on it stays correct. A delivery whose try is in flight (its lease not yet
   * cleared by a settle, even one run out: that try may still settle it) is sent again once that try is recorded,
   * rather than being passed over. Answers how many deliveries were queued.
   */
  async redeliver(actor: Actor, eventId: string): Promise<{ eventId: string; deliveries: number }> {
    const [rows] = await this.db.query<[unknown[], number]>(
      `UPDATE webhook_deliveries d
          SET state = 'pending', updated_at = now(),
              redeliver_requested = (d.state = 'pending' AND d.lease_expires_at IS NOT NULL),
              next_attempt_at = CASE WHEN d.state = 'pending' AND d.lease_expires_at IS NOT NULL THEN d.next_attempt_at ELSE now() END
         FROM events e WHERE e.id = d.event_id AND e.id = $1 AND ($2::uuid IS NULL OR e.merchant_id = $2)
          AND (d.state <> 'pending' OR d.next_attempt_at > now() OR d.lease_expires_at IS NOT NULL)
       RETURNING d.id`,
      [eventId, merchantScope(actor)],
    );
    if (rows.length === 0) await this.mustExist(actor, eventId);
    if (rows.length > 0) await this.db.query(`SELECT pg_notify('charge_once_deliveries', '')`);
    return { eventId, deliveries: rows.length };
  }

  private async mustExist(actor: Actor, eventId: string): Promise<void> {
    const found = await this.db.query<unknown[]>(`SELECT 1 FROM events WHERE id = $1 AND ($2::uuid IS NULL OR merchant_id = $2)`, [eventId, merchantScope(actor)]);
    if (found.length === 0) throw new EventNotFoundError(eventId);
  }
}
