import type { EntityManager } from 'typeorm';

/**
 * Everything known about the charge behind a review item, assembled at read time from the tables that
 * record it (so it includes what happened after the item opened): the charge, every attempt with the exact
 * payload it sent, every provider call, every transition, every webhook event for those attempts.
 */
export interface ReviewEvidence {
  /** Undefined for a payout's item (which has `payout`) and a proposal refund's (which has `refund`). */
  charge: Record<string, unknown> | undefined;
  payout?: Record<string, unknown>;
  /** For the refund of a proposal (no charge of ours): that refund. */
  refund?: Record<string, unknown>;
  /** For a `reconciliation_gap` item: every run of that provider's day, oldest first (no attempts). */
  runs?: Array<Record<string, unknown>>;
  attempts: Array<Record<string, unknown>>;
  providerCalls: Array<Record<string, unknown>>;
  transitions: Array<Record<string, unknown>>;
  webhookEvents: Array<Record<string, unknown>>;
  /** What was known when the item was opened (and findings added since). */
  snapshot: unknown;
}

/** Whose attempts are the evidence: a charge's; a payout's; or the refund's, for a proposal's refund (no charge of ours). */
export interface EvidenceOwner {
  chargeId: string | null;
  payoutId: string | null;
  refundId: string | null;
  /** A `reconciliation_gap` item's provider and day. */
  gap?: { provider: string; day: string } | null;
}

export async function readReviewEvidence(em: EntityManager, owner: EvidenceOwner, snapshot: unknown): Promise<ReviewEvidence> {
  if (owner.gap) {
    const runs = await em.query<Array<Record<string, unknown>>>(
      `SELECT id, trigger, source, status, error, requested_by AS "requestedBy", started_at AS "startedAt", finished_at AS "finishedAt"
         FROM reconciliation_runs WHERE provider = $1 AND day = $2 ORDER BY started_at, id`,
      [owner.gap.provider, owner.gap.day],
    );
    return { charge: undefined, runs, attempts: [], providerCalls: [], transitions: [], webhookEvents: [], snapshot };
  }
  if (owner.chargeId) {
    const [[charge], rest] = await Promise.all([
      em.query<Array<Record<string, unknown>>>(
        `SELECT id, order_id AS "orderId", amount_cents::float8 AS "amountCents", currency, customer_id AS "customerId",
                payment_method_id AS "paymentMethodId", provider, created_by AS "createdBy", created_at AS "createdAt"
           FROM charges WHERE id = $1`,
        [owner.chargeId],
      ),
      readAttemptsEvidence(em, 'charge_id', owner.chargeId),
    ]);
    return { charge, ...rest, snapshot };
  }
  if (owner.payoutId) {
    const [[payout], rest] = await Promise.all([
      em.query<Array<Record<string, unknown>>>(
        `SELECT id, account_id AS "accountId", amount_cents::float8 AS "amountCents", currency, provider, pix_key_type AS "pixKeyType",
                description, created_by AS "createdBy", created_at AS "createdAt"
           FROM payouts WHERE id = $1`,
        [owner.payoutId],
      ),
      readAttemptsEvidence(em, 'payout_id', owner.payoutId),
    ]);
    return { charge: undefined, payout, ...rest, snapshot };
  }
  // No charge of ours: the refund of a proposal, and the provider charge it returns money from.
  const [[refund], rest] = await Promise.all([
    em.query<Array<Record<string, unknown>>>(
      `SELECT id, proposal_id AS "proposalId", provider_charge_id AS "providerChargeId", amount_cents::float8 AS "amountCents",
              currency, reason, created_by AS "createdBy", created_at AS "createdAt"
         FROM refunds WHERE id = $1`,
      [owner.refundId],
    ),
    readAttemptsEvidence(em, 'refund_id', owner.refundId ?? ''),
  ]);
  return { charge: undefined, refund, ...rest, snapshot };
}

/** Every attempt of one owner (a charge, or a payout) with its provider calls, transitions and webhook events. */
async function readAttemptsEvidence(em: EntityManager, ownerColumn: 'charge_id' | 'payout_id' | 'refund_id', ownerId: string): Promise<Pick<ReviewEvidence, 'attempts' | 'providerCalls' | 'transitions' | 'webhookEvents'>> {
  const [attempts, providerCalls, transitions, webhookEvents] = await Promise.all([
    em.query<Array<Record<string, unknown>>>(
      `SELECT id, idempotency_key AS "idempotencyKey", provider, status, provider_ref AS "providerChargeId", payload,
              payload_hash AS "payloadHash", http_attempts AS "httpAttempts", resolution_tries AS "resolutionTries",
              last_error AS "lastError", created_at AS "createdAt", last_sent_at AS "lastSentAt",
              unknown_since AS "unknownSince", resolved_at AS "resolvedAt", resolved_by AS "resolvedBy"
         FROM attempts WHERE ${ownerColumn} = $1 ORDER BY created_at, id`,
      [ownerId],
    ),
    em.query<Array<Record<string, unknown>>>(
      `SELECT p.attempt_id AS "attemptId", p.at, p.kind, p.outcome, p.http_status AS "httpStatus", p.duration_ms AS "durationMs", p.detail
         FROM provider_calls p JOIN attempts a ON a.id = p.attempt_id WHERE a.${ownerColumn} = $1 ORDER BY p.at, p.id`,
      [ownerId],
    ),
    em.query<Array<Record<string, unknown>>>(
      `SELECT t.attempt_id AS "attemptId", t.at, t.from_status AS "from", t.to_status AS "to", t.cause, t.actor, t.detail
         FROM attempt_transitions t JOIN attempts a ON a.id = t.attempt_id WHERE a.${ownerColumn} = $1 ORDER BY t.at, t.id`,
      [ownerId],
    ),
    em.query<Array<Record<string, unknown>>>(
      `SELECT w.attempt_id AS "attemptId", w.received_at AS "receivedAt", w.event_id AS "eventId", w.type,
              w.provider_charge_id AS "providerChargeId", w.disposition, w.detail, w.payload
         FROM webhook_events w JOIN attempts a ON a.id = w.attempt_id WHERE a.${ownerColumn} = $1 ORDER BY w.received_at, w.id`,
      [ownerId],
    ),
  ]);
  return { attempts, providerCalls, transitions, webhookEvents };
}
