import { Injectable } from '@nestjs/common';
import { ReplicaReader, type ReadQuery } from '@app/database/replica';

/** A lookup never returns more than this many charges: finance narrows the query instead. */
const MAX_HITS = 50;
/**
 * Replica lag the lookup accepts: finance looks up a charge a customer just asked about, seconds after it happened at
 * the earliest; past 5 s behind, the primary answers. What a reviewer then decides is read again on the primary.
 */
const LOOKUP_STALENESS_TOLERATED_MS = 5_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = Record<string, unknown>;

export interface ChargeLookupHit {
  id: string;
  merchantId: string;
  merchantName: string;
  orderId: string;
  customerId: string;
  amountCents: number;
  currency: string;
  provider: string;
  createdAt: Date;
  /** Charge and refund attempts, oldest first, each with every call made to the provider for it. */
  attempts: Array<Row & { id: string; providerCalls: Row[] }>;
  refunds: Row[];
  reviewItems: Row[];
  /** What the merchant was told: the charge's and its refunds' events in commit order, each with its deliveries. */
  events: Row[];
}

/**
 * Finance's "where is this money": a charge found by its id, the merchant's order id, the customer id, or a
 * provider reference (the provider charge / payment intent id an attempt, a late capture or a reviewer's
 * decision recorded). Reviewers and admins work every merchant's queue, so this reads across merchants.
 */
@Injectable()
export class ChargeLookupQuery {
  constructor(private readonly replica: ReplicaReader) {}

  /** One snapshot of the replica (or the primary) for the whole answer: a charge never shown with another moment's attempts. */
  find(query: string): Promise<{ items: ChargeLookupHit[]; truncated: boolean }> {
    return this.replica.read(LOOKUP_STALENESS_TOLERATED_MS, (read) => this.findIn(read, query));
  }

  private async findIn(read: ReadQuery, query: string): Promise<{ items: ChargeLookupHit[]; truncated: boolean }> {
    const charges = await read<Row>(
      `WITH hits AS (
         SELECT id FROM charges WHERE id = $2::uuid OR order_id = $1 OR customer_id = $1
         UNION SELECT charge_id FROM attempts WHERE charge_id IS NOT NULL AND (provider_ref = $1 OR late_capture_provider_charge_id = $1)
         UNION SELECT a.charge_id FROM review_items r JOIN attempts a ON a.id = r.attempt_id WHERE a.charge_id IS NOT NULL AND r.decision_provider_charge_id = $1
       )
       SELECT c.id, c.merchant_id AS "merchantId", m.name AS "merchantName", c.order_id AS "orderId", c.customer_id AS "customerId",
              c.amount_cents::float8 AS "amountCents", c.currency, c.provider, c.created_at AS "createdAt"
         FROM charges c JOIN hits h ON h.id = c.id JOIN merchants m ON m.id = c.merchant_id
        ORDER BY c.created_at DESC, c.id LIMIT ${MAX_HITS + 1}`,
      [query, UUID.test(query) ? query : null],
    );
    const page = charges.slice(0, MAX_HITS);
    const ids = page.map((c) => c.id as string);
    const [attempts, calls, refunds, reviewItems, events] = await Promise.all([
      read<Row>(
        `SELECT id, charge_id AS "chargeId", operation, refund_id AS "refundId", provider, status, provider_ref AS "providerChargeId",
                late_capture_provider_charge_id AS "lateCaptureProviderChargeId", idempotency_key AS "idempotencyKey", http_attempts AS "httpAttempts",
                last_error AS "lastError", created_at AS "createdAt", unknown_since AS "unknownSince", resolved_at AS "resolvedAt", resolved_by AS "resolvedBy"
           FROM attempts WHERE charge_id = ANY($1::uuid[]) ORDER BY created_at, id`,
        [ids],
      ),
      read<Row>(
        `SELECT p.id, p.attempt_id AS "attemptId", p.at, p.kind, p.outcome, p.http_status AS "httpStatus", p.duration_ms AS "durationMs", p.detail
           FROM provider_calls p JOIN attempts a ON a.id = p.attempt_id WHERE a.charge_id = ANY($1::uuid[]) ORDER BY p.at, p.id`,
        [ids],
      ),
      read<Row>(
        `SELECT id, charge_id AS "chargeId", amount_cents::float8 AS "amountCents", currency, reason, created_by AS "createdBy", released_at AS "releasedAt", created_at AS "createdAt"
           FROM refunds WHERE charge_id = ANY($1::uuid[]) ORDER BY created_at, id`,
        [ids],
      ),
      read<Row>(
        `SELECT r.id, a.charge_id AS "chargeId", r.attempt_id AS "attemptId", r.reason, r.state, r.decision, r.decided_by AS "decidedBy",
                r.confirmed_by AS "confirmedBy", r.follow_up AS "followUp", r.created_at AS "openedAt", r.closed_at AS "closedAt"
           FROM review_items r JOIN attempts a ON a.id = r.attempt_id WHERE a.charge_id = ANY($1::uuid[]) ORDER BY r.created_at, r.id`,
        [ids],
      ),
      // An endpoint URL may carry the merchant's own token in its query string: finance sees scheme, host and path.
      read<Row>(
        `SELECT e.id, COALESCE(r.charge_id, e.object_id) AS "chargeId", e.type, e.object_type AS "objectType", e.object_id AS "objectId",
                e.object_version AS "objectVersion", e.created_at AS "createdAt",
                COALESCE((SELECT jsonb_agg(jsonb_build_object(
                           'endpointId', d.endpoint_id, 'url', split_part(w.url, '?', 1), 'state', d.state, 'attempts', d.attempts,
                           'deliveredAt', d.delivered_at, 'nextAttemptAt', CASE WHEN d.state = 'pending' THEN d.next_attempt_at END,
                           'lastHttpStatus', (SELECT x.http_status FROM webhook_delivery_attempts x WHERE x.delivery_id = d.id ORDER BY x.attempt DESC LIMIT 1),
                           'lastError', (SELECT x.error FROM webhook_delivery_attempts x WHERE x.delivery_id = d.id ORDER BY x.attempt DESC LIMIT 1))
                           ORDER BY d.id)
                            FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = e.id), '[]'::jsonb) AS deliveries
           FROM events e LEFT JOIN refunds r ON e.object_type = 'refund' AND r.id = e.object_id
          WHERE (e.object_type = 'charge' AND e.object_id = ANY($1::uuid[]))
             OR (e.object_type = 'refund' AND e.object_id IN (SELECT id FROM refunds WHERE charge_id = ANY($1::uuid[])))
          ORDER BY e.xact_id, e.seq`,
        [ids],
      ),
    ]);
    const of = <T extends Row>(rows: T[], key: string, id: unknown) => rows.filter((row) => row[key] === id);
    const hits: ChargeLookupHit[] = page.map((charge) => ({
      ...(charge as Omit<ChargeLookupHit, 'attempts' | 'refunds' | 'reviewItems' | 'events'>),
      attempts: of(attempts, 'chargeId', charge.id).map((attempt) => ({ ...attempt, id: attempt.id as string, providerCalls: of(calls, 'attemptId', attempt.id) })),
      refunds: of(refunds, 'chargeId', charge.id),
      reviewItems: of(reviewItems, 'chargeId', charge.id),
      events: of(events, 'chargeId', charge.id),
    }));
    return { items: hits, truncated: charges.length > MAX_HITS };
  }
}
