import type { DataSource } from 'typeorm';
import type { EndpointSecretColumns } from '../endpoint-signing-secrets.js';

/** A delivery this worker holds the lease on: everything the request needs, read in the claiming statement. */
export interface ClaimedDelivery extends EndpointSecretColumns {
  id: string;
  /** This try's number: the lease is ours while the row still carries it. */
  attempts: number;
  created_at: Date;
  endpoint_id: string;
  url: string;
  failing_since: Date | null;
  event_id: string;
  type: string;
  merchant_id: string;
  object_version: number;
  object: Record<string, unknown>;
  event_created_at: Date;
}

/** What one try came to, as kept in webhook_delivery_attempts (the answer cut to 1 KiB). */
export interface TryRecord {
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  excerpt: string | null;
}

export type SettleOutcome = { state: 'delivered' } | { state: 'pending'; retryInMs: number } | { state: 'abandoned' };

/** One try to record and the row's state after it. */
export interface Settle {
  delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>;
  tried: TryRecord;
  outcome: SettleOutcome;
}

/**
 * webhook_deliveries as a queue in PostgreSQL: a Redis flush or a killed worker loses nothing. A claim leases due
 * rows (FOR UPDATE SKIP LOCKED, so workers never take the same row) and numbers the try; a worker that dies
 * mid-request leaves its lease to run out, and the next claim sends the same event again under the same
 * webhook-id. At most `perEndpoint` rows of one endpoint are leased at once across every worker, so one slow
 * receiver holds only its own share. A row of another merchant's endpoint can never be claimed for an event: the
 * claim joins on the merchant as well.
 */
export class DeliveryStore {
  constructor(
    private readonly db: DataSource,
    /** Who holds a lease (host:pid): what an operator, or a test that kills a worker, reads. */
    private readonly owner: string,
  ) {}

  async claim(limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const [rows] = await this.db.query<[ClaimedDelivery[], number]>(
      `WITH in_flight AS (
         SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
          WHERE state = 'pending' AND lease_expires_at > now() GROUP BY endpoint_id),
       due AS (
         SELECT e.id AS endpoint_id, x.id, x.next_attempt_at
           FROM webhook_endpoints e
          CROSS JOIN LATERAL (
                SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
                 WHERE d.endpoint_id = e.id AND d.state = 'pending' AND d.next_attempt_at <= now()
                   AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= now())
                 ORDER BY d.next_attempt_at, d.id LIMIT $2 FOR UPDATE SKIP LOCKED) x
          WHERE e.enabled AND e.deleted_at IS NULL),
       picked AS (
         SELECT r.id FROM (SELECT due.*, row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at, due.id) AS rank FROM due) r
           LEFT JOIN in_flight f ON f.endpoint_id = r.endpoint_id
          WHERE r.rank <= $2 - COALESCE(f.n, 0)
          ORDER BY r.next_attempt_at LIMIT $1)
       UPDATE webhook_deliveries d
          SET lease_expires_at = clock_timestamp() + ($3::int * interval '1 millisecond'), leased_by = $4, attempts = d.attempts + 1, redeliver_requested = false, updated_at = now()
         FROM picked, events ev, webhook_endpoints w
        WHERE d.id = picked.id AND ev.id = d.event_id AND w.id = d.endpoint_id
          AND ev.merchant_id = d.merchant_id AND w.merchant_id = d.merchant_id
       RETURNING d.id, d.attempts, d.created_at, d.endpoint_id, w.url, w.failing_since, w.secret_ciphertext, w.previous_secret_ciphertext,
                 w.previous_secret_expires_at, ev.id AS event_id, ev.type, ev.merchant_id, ev.object_version, ev.object, ev.created_at AS event_created_at`,
      [limit, perEndpoint, leaseMs, this.owner],
    );
    return rows;
  }

  /**
   * Records each try, whoever holds its row now, and settles each row only while its lease is still that try's: one
   * statement for a whole batch. A redeliver asked for during the try leaves the row due now, whatever the try
   * got back. Answers the ids it settled.
   */
  async settle(settles: readonly Settle[]): Promise<Set<string>> {
    const column = <T>(pick: (s: Settle) => T) => settles.map(pick);
    const [rows] = await this.db.query<[Array<{ id: string }>, number]>(
      `WITH input AS (
         SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::text[], $9::int[])
             AS t(id, attempt, state, started_at, duration_ms, http_status, error, excerpt, retry_ms)),
       tried AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, response_excerpt)
         SELECT id, attempt, started_at, duration_ms, http_status, error, excerpt FROM input ON CONFLICT (delivery_id, attempt) DO NOTHING)
       UPDATE webhook_deliveries d
          SET state = CASE WHEN d.redeliver_requested THEN 'pending' ELSE i.state END,
              lease_expires_at = NULL, redeliver_requested = false, updated_at = now(),
              delivered_at = CASE WHEN i.state = 'delivered' THEN now() ELSE d.delivered_at END,
              next_attempt_at = CASE WHEN d.redeliver_requested THEN now()
                                     WHEN i.state = 'pending' THEN now() + (i.retry_ms * interval '1 millisecond')
                                     ELSE d.next_attempt_at END
         FROM input i
        WHERE d.id = i.id AND d.attempts = i.attempt AND d.state = 'pending'
       RETURNING d.id::text AS id`,
      [
        column((s) => s.delivery.id),
        column((s) => s.delivery.attempts),
        column((s) => s.outcome.state),
        column((s) => s.tried.startedAt),
        column((s) => Math.round(s.tried.durationMs)),
        column((s) => s.tried.httpStatus),
        column((s) => s.tried.error),
        column((s) => s.tried.excerpt),
        column((s) => (s.outcome.state === 'pending' ? s.outcome.retryInMs : 0)),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** A 2xx: the endpoint is healthy again. */
  async markHealthy(endpointId: string): Promise<void> {
    await this.db.query(`UPDATE webhook_endpoints SET failing_since = NULL, updated_at = now() WHERE id = $1 AND failing_since IS NOT NULL`, [endpointId]);
  }

  /**
   * Anything but a 2xx: failing since the first such answer after the last success. Disabled when the receiver
   * said 410 Gone, or when it has failed without a success for `disableAfterMs`. Answers the reason it was
   * disabled now, if it was.
   */
  async markFailing(endpointId: string, gone: boolean, disableAfterMs: number): Promise<'gone' | 'failing' | null> {
    const disable = `w.enabled AND ($2 OR COALESCE(w.failing_since, now()) < now() - ($3::bigint * interval '1 millisecond'))`;
    const [rows] = await this.db.query<[Array<{ was_enabled: boolean; enabled: boolean; disabled_reason: 'gone' | 'failing' | null }>, number]>(
      `UPDATE webhook_endpoints w
          SET failing_since = COALESCE(w.failing_since, now()), updated_at = now(),
              enabled = CASE WHEN ${disable} THEN false ELSE w.enabled END,
              disabled_reason = CASE WHEN ${disable} THEN (CASE WHEN $2 THEN 'gone' ELSE 'failing' END) ELSE w.disabled_reason END
         FROM (SELECT id, enabled FROM webhook_endpoints WHERE id = $1) before
        WHERE w.id = before.id
       RETURNING before.enabled AS was_enabled, w.enabled, w.disabled_reason`,
      [endpointId, gone, disableAfterMs],
    );
    const row = rows[0];
    return row && row.was_enabled && !row.enabled ? (row.disabled_reason) : null;
  }
}
