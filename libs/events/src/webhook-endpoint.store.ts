import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { EventType } from './event-types.js';
import type { WebhookEndpointViewRow } from './webhook-endpoint.view.js';

/** What a view reads: every column but the secrets, and the rotation window on the database's clock. */
const VIEW_COLUMNS = `id, merchant_id, url, description, event_types, enabled, disabled_reason, failing_since, created_at, updated_at,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS secret_rotated_until`;

/**
 * A merchant scope in SQL: the caller's merchant, or null (a reviewer or admin: every merchant). Every statement
 * below carries it, so another merchant's endpoint is simply not found.
 */
const IN_SCOPE = `id = $1 AND ($2::uuid IS NULL OR merchant_id = $2) AND deleted_at IS NULL`;

export interface NewEndpointRow {
  url: string;
  description: string | null;
  eventTypes: EventType[] | null;
  secretCiphertext: string;
}

/** A PATCH: an absent field (undefined) is left as it is; null description or events clear them. */
export interface EndpointChanges {
  url?: string;
  description?: string | null;
  eventTypes?: EventType[] | null;
  enabled?: boolean;
}

/** The one writer of webhook_endpoints. The deliverer only reads it (and marks an endpoint gone or failing). */
@Injectable()
export class WebhookEndpointStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Inserts unless the merchant already has `limit` live endpoints (null then). The advisory lock on the merchant
   * makes count-and-insert one step: two concurrent creates never both take the last place.
   */
  insert(merchantId: string, row: NewEndpointRow, limit: number): Promise<WebhookEndpointViewRow | null> {
    return this.db.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`webhook-endpoints:${merchantId}`]);
      const [inserted] = await em.query<WebhookEndpointViewRow[]>(
        `INSERT INTO webhook_endpoints (merchant_id, url, description, event_types, secret_ciphertext)
         SELECT $1, $2, $3, $4::text[], $5
          WHERE (SELECT count(*) FROM webhook_endpoints WHERE merchant_id = $1 AND deleted_at IS NULL) < $6
         RETURNING ${VIEW_COLUMNS}`,
        [merchantId, row.url, row.description, row.eventTypes, row.secretCiphertext, limit],
      );
      return inserted ?? null;
    });
  }

  /** Newest first; a merchant has a bounded number, a reviewer or admin sees the newest across merchants. */
  list(scope: string | null): Promise<WebhookEndpointViewRow[]> {
    return this.db.query<WebhookEndpointViewRow[]>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_endpoints
        WHERE ($1::uuid IS NULL OR merchant_id = $1) AND deleted_at IS NULL
        ORDER BY created_at DESC, id DESC LIMIT 500`,
      [scope],
    );
  }

  async find(id: string, scope: string | null): Promise<WebhookEndpointViewRow | null> {
    const [row] = await this.db.query<WebhookEndpointViewRow[]>(`SELECT ${VIEW_COLUMNS} FROM webhook_endpoints WHERE ${IN_SCOPE}`, [id, scope]);
    return row ?? null;
  }

  /**
   * One statement, so the CHECK (enabled = (disabled_reason IS NULL)) always holds: enabling clears the reason and
   * the failure streak; disabling an enabled endpoint is the merchant's doing, and one the deliverer already
   * disabled (gone, failing) keeps its reason. A new URL is a new receiver: its failure streak starts afresh.
   */
  async update(id: string, scope: string | null, changes: EndpointChanges): Promise<WebhookEndpointViewRow | null> {
    const [[row]] = await this.db.query<[WebhookEndpointViewRow[], number]>(
      `UPDATE webhook_endpoints SET
          url = COALESCE($3::text, url),
          description = CASE WHEN $4::boolean THEN $5::text ELSE description END,
          event_types = CASE WHEN $6::boolean THEN $7::text[] ELSE event_types END,
          enabled = COALESCE($8::boolean, enabled),
          disabled_reason = CASE WHEN $8::boolean THEN NULL WHEN NOT $8::boolean AND enabled THEN 'merchant' ELSE disabled_reason END,
          failing_since = CASE WHEN ($8::boolean AND NOT enabled) OR $3::text <> url THEN NULL ELSE failing_since END,
          updated_at = now()
        WHERE ${IN_SCOPE}
        RETURNING ${VIEW_COLUMNS}`,
      [
        id,
        scope,
        changes.url ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.eventTypes !== undefined,
        changes.eventTypes ?? null,
        changes.enabled ?? null,
      ],
    );
    return row ?? null;
  }

  /**
   * A new current secret; the one it replaces stays valid for 24 h as the previous (a second rotation within the
   * window drops the oldest). Merchant scope only: the caller checked it is a merchant's.
   */
  async rotateSecret(id: string, merchantId: string, secretCiphertext: string): Promise<WebhookEndpointViewRow | null> {
    const [[row]] = await this.db.query<[WebhookEndpointViewRow[], number]>(
      `UPDATE webhook_endpoints
          SET previous_secret_ciphertext = secret_ciphertext, previous_secret_expires_at = now() + interval '24 hours',
              secret_ciphertext = $3, updated_at = now()
        WHERE ${IN_SCOPE}
        RETURNING ${VIEW_COLUMNS}`,
      [id, merchantId, secretCiphertext],
    );
    return row ?? null;
  }

  /** Soft: the endpoint leaves every view and fan-out, its deliveries keep their history. */
  async softDelete(id: string, scope: string | null): Promise<boolean> {
    const [rows] = await this.db.query<[unknown[], number]>(`UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now() WHERE ${IN_SCOPE} RETURNING id`, [id, scope]);
    return rows.length === 1;
  }

  /**
   * A ping for this endpoint only, written by emit_event (the one writer of events) with the endpoint as its
   * only recipient. The row is held FOR SHARE until commit, so a concurrent delete or disable waits and the ping
   * is never fanned out to an endpoint that is already gone. Null: not found; `eventId` null: it is disabled.
   */
  ping(id: string, scope: string | null, objectOf: (row: WebhookEndpointViewRow) => Record<string, unknown>): Promise<{ row: WebhookEndpointViewRow; eventId: string | null } | null> {
    return this.db.transaction(async (em) => {
      const [row] = await em.query<WebhookEndpointViewRow[]>(`SELECT ${VIEW_COLUMNS} FROM webhook_endpoints WHERE ${IN_SCOPE} FOR SHARE`, [id, scope]);
      if (!row) return null;
      if (!row.enabled) return { row, eventId: null };
      const [{ event_id: eventId }] = await em.query<Array<{ event_id: string }>>(
        `SELECT emit_event($1::uuid, 'ping', 'webhook_endpoint', $2::uuid, $3::jsonb, NULL, $2::uuid) AS event_id`,
        [row.merchant_id, row.id, JSON.stringify(objectOf(row))],
      );
      return { row, eventId };
    });
  }
}
