import { EntityManager, type DataSource } from 'typeorm';
import { ChargeAttemptEntity, ChargeEntity, isUniqueViolation, preparedQuery } from '@app/database';
import { ChargeAlreadyCapturedError } from './attempts.errors.js';

/**
 * The SQL of the charge hot path (create, then the first submit), in one place, each statement a single round
 * trip on a named prepared statement. Every guarantee stays in the database: each statement says which one it
 * carries. Anything these statements cannot confirm falls back to the full, locked path, never to a guess.
 */

/** One charge per merchant and order id: `UQ_charges_merchant_order_id` refuses a second (the caller maps 23505 to 409). One commit. */
export async function insertCharge(db: DataSource, c: ChargeEntity): Promise<void> {
  await preparedQuery(
    db,
    'hot_insert_charge_v2',
    `INSERT INTO charges (id, order_id, amount_cents, currency, customer_id, payment_method_id, provider, billing_type, due_date, created_by, merchant_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [c.id, c.orderId, c.amountCents, c.currency, c.customerId, c.paymentMethodId, c.provider, c.billingType, c.dueDate, c.createdBy, c.merchantId],
  );
}

export interface ChargeForSubmit {
  charge: ChargeEntity;
  /** Its charge attempts, oldest first (refund attempts are the refund's). */
  attempts: ChargeAttemptEntity[];
  /** A person is deciding about one of its charge attempts. */
  inReview: boolean;
  /** The database's clock when read: a re-check's freshness is judged on it. */
  dbNow: Date;
}

interface ChargeForSubmitRow {
  id: string; merchant_id: string; order_id: string; amount_cents: string; currency: string; customer_id: string; payment_method_id: string | null;
  provider: string; billing_type: string | null; due_date: string | null; refunded_cents: string; dispute_status: string | null;
  in_review: boolean; db_now: Date;
  a_id: string | null; a_idempotency_key: string; a_provider: string; a_status: ChargeAttemptEntity['status']; a_provider_charge_id: string | null;
  a_payload_hash: string; a_http_attempts: number; a_last_error: object | null; a_resolved_by: string | null; a_rechecked_at: Date | null;
  a_resolved_at: Date | null; a_created_at: Date; a_late_captured_at: Date | null; a_late_capture_provider_charge_id: string | null;
}

/**
 * No lock, no transaction: what the opener's rules decide on. Nothing read here is trusted for a write;
 * `openClaimedChargeAttempt` re-confirms it under the charge lock. `merchantId` scopes the read to one merchant
 * (null: any, for reviewers and admins): another merchant's charge is simply not found.
 */
export async function readChargeForSubmit(db: DataSource, chargeId: string, merchantId: string | null): Promise<ChargeForSubmit | null> {
  const rows = await preparedQuery<ChargeForSubmitRow>(
    db,
    'hot_read_charge_for_submit_v3',
    `SELECT c.id, c.merchant_id, c.order_id, c.amount_cents, c.currency, c.customer_id, c.payment_method_id, c.provider, c.billing_type,
            c.due_date::text AS due_date, c.refunded_cents, c.dispute_status,
            EXISTS (SELECT 1 FROM review_items r JOIN charge_attempts ra ON ra.id = r.attempt_id
                     WHERE ra.charge_id = c.id AND ra.operation = 'charge' AND r.state <> 'closed') AS in_review, now() AS db_now,
            a.id AS a_id, a.idempotency_key AS a_idempotency_key, a.provider AS a_provider, a.status AS a_status,
            a.provider_charge_id AS a_provider_charge_id, a.payload_hash AS a_payload_hash, a.http_attempts AS a_http_attempts,
            a.last_error AS a_last_error, a.resolved_by AS a_resolved_by, a.rechecked_at AS a_rechecked_at,
            a.resolved_at AS a_resolved_at, a.created_at AS a_created_at,
            a.late_captured_at AS a_late_captured_at, a.late_capture_provider_charge_id AS a_late_capture_provider_charge_id
       FROM charges c LEFT JOIN charge_attempts a ON a.charge_id = c.id AND a.operation = 'charge'
      WHERE c.id = $1 AND ($2::uuid IS NULL OR c.merchant_id = $2)
      ORDER BY a.created_at`,
    [chargeId, merchantId],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  const charge = Object.assign(new ChargeEntity(), {
    id: r.id, merchantId: r.merchant_id, orderId: r.order_id, amountCents: Number(r.amount_cents), currency: r.currency, customerId: r.customer_id,
    paymentMethodId: r.payment_method_id, provider: r.provider, billingType: r.billing_type, dueDate: r.due_date,
    refundedCents: Number(r.refunded_cents), disputeStatus: r.dispute_status,
  });
  const attempts = rows.filter((a) => a.a_id !== null).map((a) =>
    Object.assign(new ChargeAttemptEntity(), {
      id: a.a_id, chargeId: r.id, operation: 'charge', idempotencyKey: a.a_idempotency_key, provider: a.a_provider, status: a.a_status,
      providerChargeId: a.a_provider_charge_id, payloadHash: a.a_payload_hash, httpAttempts: a.a_http_attempts, lastError: a.a_last_error,
      resolvedBy: a.a_resolved_by, recheckedAt: a.a_rechecked_at, resolvedAt: a.a_resolved_at, createdAt: a.a_created_at,
      lateCapturedAt: a.a_late_captured_at, lateCaptureProviderChargeId: a.a_late_capture_provider_charge_id,
    }),
  );
  return { charge, attempts, inReview: r.in_review, dbNow: r.db_now };
}

/**
 * The one way a charge attempt is created: already claimed for its first send, with its key, exact payload and
 * creation audit row, in one commit before any network I/O (the PL/pgSQL function of migration
 * 1764680150000, which takes the charge lock and only then re-confirms that `knownAttempts` are still all
 * there are, none open, nobody reviewing). Inside a caller's transaction that already holds the charge lock it
 * simply inserts. Returns false when the facts changed or the partial unique index found an open attempt; throws
 * ChargeAlreadyCapturedError when the database refuses because the provider holds a capture for the charge.
 */
export async function openClaimedChargeAttempt(
  runner: DataSource | EntityManager,
  attempt: ChargeAttemptEntity,
  knownAttempts: number,
  leaseMs: number,
  actor: string,
): Promise<boolean> {
  const values = [attempt.chargeId, knownAttempts, attempt.id, attempt.idempotencyKey, attempt.provider, attempt.payload, attempt.payloadHash, leaseMs, actor];
  const text = `SELECT open_claimed_charge_attempt($1, $2, $3, $4, $5, $6, $7, $8, $9) AS created_at`;
  try {
    const [row] = runner instanceof EntityManager
      ? await runner.query<Array<{ created_at: Date | null }>>(text, values)
      : await preparedQuery<{ created_at: Date | null }>(runner, 'hot_open_claimed_charge_attempt', text, values);
    if (!row.created_at) return false;
    Object.assign(attempt, { status: 'pending', httpAttempts: 1, createdAt: row.created_at, operation: 'charge' });
    return true;
  } catch (error) {
    if (isUniqueViolation(error, 'uq_charge_attempts_open_per_charge')) return false;
    const capturedBy = captureRefusal(error);
    if (capturedBy) throw new ChargeAlreadyCapturedError(attempt.chargeId!, capturedBy);
    throw error;
  }
}

/** The capturing attempt's id when the trigger of migration 1764680180000 refused a new attempt (SQLSTATE CO409). */
function captureRefusal(error: unknown): string | null {
  const driverError = (error as { driverError?: { code?: string; detail?: string } } | null)?.driverError ?? (error as { code?: string; detail?: string } | null);
  return driverError?.code === 'CO409' ? (driverError.detail ?? null) : null;
}

export interface SettledSend {
  status: 'succeeded' | 'failed' | 'unknown';
  providerChargeId: string | null;
  lastError: object | null;
  resolvedAt: Date | null;
}

/**
 * A charge send's result, its evidence and its transition in one statement, one commit. The UPDATE is the
 * transition writer's conditional transition (status still `pending`, the claim still ours by `http_attempts`,
 * never swapping one provider charge for another): its row lock is taken before the inserts' foreign-key checks
 * (which run at the end of the statement), so the attempt is written before the evidence that references it,
 * the lock order every writer keeps. When the UPDATE matches nothing, nothing at all is written and null comes
 * back: the sender then records through the full path (late facts through ProviderFactApplier).
 */
export async function settleChargeSend(
  db: DataSource,
  s: { attemptId: string; claimed: number; to: SettledSend['status']; providerChargeId: string | null; lastError: object | null; actor: string; transitionDetail: object; call: { outcome: string; httpStatus: number | null; durationMs: number; detail: object } },
): Promise<SettledSend | null> {
  const settle = preparedQuery<{ provider_charge_id: string | null; resolved_at: Date | null }>(
    db,
    'hot_settle_charge_send',
    `WITH settled AS (
       UPDATE charge_attempts
          SET status = $3, provider_charge_id = COALESCE($4, provider_charge_id), last_error = $5,
              lease_expires_at = NULL, next_send_at = NULL, last_send_ended_at = clock_timestamp(),
              unknown_since = CASE WHEN $3 = 'unknown' THEN now() ELSE unknown_since END,
              resolved_at = CASE WHEN $3 IN ('succeeded', 'failed') THEN now() ELSE resolved_at END,
              resolved_by = CASE WHEN $3 IN ('succeeded', 'failed') THEN 'submit' ELSE resolved_by END,
              updated_at = now()
        WHERE id = $1 AND operation = 'charge' AND status = 'pending' AND http_attempts = $2
          AND ($4::text IS NULL OR provider_charge_id IS NULL OR provider_charge_id = $4)
        RETURNING id, provider_charge_id, resolved_at),
     transition AS (
       INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
       SELECT id, 'pending', $3, 'submit', $6, $7 FROM settled),
     evidence AS (
       INSERT INTO provider_calls (attempt_id, kind, outcome, http_status, duration_ms, detail)
       SELECT id, 'create', $8, $9, $10, $11 FROM settled)
     SELECT provider_charge_id, resolved_at FROM settled`,
    [s.attemptId, s.claimed, s.to, s.providerChargeId, s.lastError, s.actor, s.transitionDetail, s.call.outcome, s.call.httpStatus, Math.round(s.call.durationMs), s.call.detail],
  );
  // A success the charge cannot hold (another attempt captured meanwhile): nothing written; the full path takes the
  // fact to the applier, which keeps it for a person.
  const [row] = await settle.catch((error: unknown) => {
    if (isUniqueViolation(error, 'uq_charge_attempts_one_capture_per_charge')) return [];
    throw error;
  });
  return row ? { status: s.to, providerChargeId: row.provider_charge_id, lastError: s.lastError, resolvedAt: row.resolved_at } : null;
}
