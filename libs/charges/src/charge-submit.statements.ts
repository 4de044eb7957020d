import type { DataSource } from 'typeorm';
import { AttemptEntity, ChargeEntity, preparedQuery } from '@app/database';

/**
 * The charges' own SQL on the hot path (create, then the read a first submit decides on), each statement a single
 * round trip on a named prepared statement (the insert is the charges' store's). The attempt it opens and settles is written by the attempts' store
 * (its fast paths). Anything these statements cannot confirm falls back to the full, locked path, never to a guess.
 */

export interface ChargeForSubmit {
  charge: ChargeEntity;
  /** Its charge attempts, oldest first (refund attempts are the refund's). */
  attempts: AttemptEntity[];
  /** A person is deciding about one of its charge attempts. */
  inReview: boolean;
  /** The database's clock when read: a re-check's freshness is judged on it. */
  dbNow: Date;
}

interface ChargeForSubmitRow {
  id: string; merchant_id: string; order_id: string; amount_cents: string; currency: string; customer_id: string; payment_method_id: string | null; customer_ip: string | null;
  provider: string; billing_type: string | null; due_date: string | null; refunded_cents: string; dispute_status: string | null; created_at: Date;
  in_review: boolean; db_now: Date;
  a_id: string | null; a_idempotency_key: string; a_provider: string; a_status: AttemptEntity['status']; a_provider_ref: string | null;
  a_payload_hash: string; a_http_attempts: number; a_last_error: object | null; a_resolved_by: string | null; a_rechecked_at: Date | null;
  a_resolved_at: Date | null; a_created_at: Date; a_late_captured_at: Date | null; a_late_capture_provider_charge_id: string | null;
}

/**
 * No lock, no transaction: what the opener's rules decide on. Nothing read here is trusted for a write;
 * the attempts' `openClaimedChargeAttempt` re-confirms it under the charge lock. `merchantId` scopes the read to one merchant
 * (null: any, for reviewers and admins): another merchant's charge is simply not found.
 */
export async function readChargeForSubmit(db: DataSource, chargeId: string, merchantId: string | null): Promise<ChargeForSubmit | null> {
  const rows = await preparedQuery<ChargeForSubmitRow>(
    db,
    'hot_read_charge_for_submit_v5',
    `SELECT c.id, c.merchant_id, c.order_id, c.amount_cents, c.currency, c.customer_id, c.payment_method_id, host(c.customer_ip) AS customer_ip, c.provider, c.billing_type,
            c.due_date::text AS due_date, c.refunded_cents, c.dispute_status, c.created_at,
            EXISTS (SELECT 1 FROM review_items r JOIN attempts ra ON ra.id = r.attempt_id
                     WHERE ra.charge_id = c.id AND ra.operation = 'charge' AND r.state <> 'closed') AS in_review, now() AS db_now,
            a.id AS a_id, a.idempotency_key AS a_idempotency_key, a.provider AS a_provider, a.status AS a_status,
            a.provider_ref AS a_provider_ref, a.payload_hash AS a_payload_hash, a.http_attempts AS a_http_attempts,
            a.last_error AS a_last_error, a.resolved_by AS a_resolved_by, a.rechecked_at AS a_rechecked_at,
            a.resolved_at AS a_resolved_at, a.created_at AS a_created_at,
            a.late_captured_at AS a_late_captured_at, a.late_capture_provider_charge_id AS a_late_capture_provider_charge_id
       FROM charges c LEFT JOIN attempts a ON a.charge_id = c.id AND a.operation = 'charge'
      WHERE c.id = $1 AND ($2::uuid IS NULL OR c.merchant_id = $2)
      ORDER BY a.created_at`,
    [chargeId, merchantId],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  const charge = Object.assign(new ChargeEntity(), {
    id: r.id, merchantId: r.merchant_id, orderId: r.order_id, amountCents: Number(r.amount_cents), currency: r.currency, customerId: r.customer_id,
    paymentMethodId: r.payment_method_id, customerIp: r.customer_ip, provider: r.provider, billingType: r.billing_type, dueDate: r.due_date,
    refundedCents: Number(r.refunded_cents), disputeStatus: r.dispute_status, createdAt: r.created_at,
  });
  const attempts = rows.filter((a) => a.a_id !== null).map((a) =>
    Object.assign(new AttemptEntity(), {
      id: a.a_id, chargeId: r.id, operation: 'charge', idempotencyKey: a.a_idempotency_key, provider: a.a_provider, status: a.a_status,
      providerRef: a.a_provider_ref, payloadHash: a.a_payload_hash, httpAttempts: a.a_http_attempts, lastError: a.a_last_error,
      resolvedBy: a.a_resolved_by, recheckedAt: a.a_rechecked_at, resolvedAt: a.a_resolved_at, createdAt: a.a_created_at,
      lateCapturedAt: a.a_late_captured_at, lateCaptureProviderChargeId: a.a_late_capture_provider_charge_id,
    }),
  );
  return { charge, attempts, inReview: r.in_review, dbNow: r.db_now };
}
