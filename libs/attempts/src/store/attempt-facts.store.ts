import type { EntityManager } from 'typeorm';

/**
 * What provider facts write beside an attempt's status, never over it: a terminal status is never rewritten; a
 * capture or an execution after our `failed` is recorded in its own columns, whose unique indexes keep one per
 * provider charge (a violation is the caller's duplicate, for a person). Every write runs under the owner's lock
 * (lockChargeAndAttempt), in the transaction of the fact that justifies it.
 */

/**
 * A capture of a charge attempt we had failed, once per attempt and provider charge
 * (`uq_attempts_one_capture_per_charge` refuses a second success-bearing attempt of the charge). True when
 * written (or already written with this provider charge).
 */
export async function markLateCapture(em: EntityManager, attemptId: string, providerChargeId: string): Promise<boolean> {
  const [rows] = await em.query<[unknown[], number]>(
    `UPDATE attempts
        SET late_captured_at = COALESCE(late_captured_at, now()), late_capture_provider_charge_id = $2, updated_at = now()
      WHERE id = $1 AND operation = 'charge' AND status = 'failed'
        AND (late_capture_provider_charge_id IS NULL OR late_capture_provider_charge_id = $2)
      RETURNING id`,
    [attemptId, providerChargeId],
  );
  return rows.length === 1;
}

/**
 * Another attempt of the charge still `pending` and not on the wire (a retry waiting for its backoff) must never be
 * sent now: it becomes `unknown` (only a query resolves it), with its audit row, in one statement. One on the wire
 * keeps its lease.
 */
export async function parkOpenSiblings(em: EntityManager, chargeId: string, capturedBy: string, providerChargeId: string, source: { cause: string; actor: string }): Promise<void> {
  await em.query(
    `WITH parked AS (
       UPDATE attempts SET status = 'unknown', unknown_since = now(), next_send_at = NULL, updated_at = now()
        WHERE charge_id = $1 AND operation = 'charge' AND id <> $2 AND status = 'pending' AND lease_expires_at IS NULL
        RETURNING id)
     INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
     SELECT id, 'pending', 'unknown', $3, $4, jsonb_build_object('reason', 'charge_captured_by_another_attempt', 'capturedBy', $2::text, 'providerChargeId', $5::text)
       FROM parked`,
    [chargeId, capturedBy, source.cause, source.actor, providerChargeId],
  );
}

/**
 * A transfer executed for a payout attempt we had failed: once per transfer
 * (`uq_attempts_late_execution_end_to_end_id`) and once per attempt. The payout's account, or null.
 */
export async function markLateExecution(em: EntityManager, attemptId: string, endToEndId: string): Promise<string | null> {
  const [rows] = await em.query<[Array<{ account_id: string }>, number]>(
    `UPDATE attempts a
        SET late_executed_at = now(), late_execution_end_to_end_id = $2, updated_at = now()
       FROM payouts p
      WHERE a.id = $1 AND p.id = a.payout_id AND a.operation = 'payout' AND a.status = 'failed' AND a.late_execution_end_to_end_id IS NULL
      RETURNING p.account_id`,
    [attemptId, endToEndId],
  );
  return rows[0]?.account_id ?? null;
}

/**
 * A refund the provider executed for a refund attempt we had failed: once per attempt (the guard on
 * `late_refunded_at`) and once per provider refund (`uq_attempts_late_refund_provider_ref`), with the amount the
 * provider says it refunded. True when written now.
 */
export async function markLateRefund(em: EntityManager, attemptId: string, providerRefundId: string, amountCents: number): Promise<boolean> {
  const [rows] = await em.query<[unknown[], number]>(
    `UPDATE attempts SET late_refunded_at = now(), late_refund_provider_ref = $2, late_refund_amount_cents = $3, updated_at = now()
      WHERE id = $1 AND operation = 'refund' AND status = 'failed' AND late_refunded_at IS NULL
      RETURNING id`,
    [attemptId, providerRefundId, amountCents],
  );
  return rows.length === 1;
}

/** Progress teaches the provider's id, once: never over another (its unique index finds a duplicate). */
export async function teachProviderChargeId(em: EntityManager, attemptId: string, providerChargeId: string): Promise<void> {
  await em.query(`UPDATE attempts SET provider_ref = $2, updated_at = now() WHERE id = $1 AND provider_ref IS NULL`, [attemptId, providerChargeId]);
}

/** A clean re-check of a failed attempt: it vouches, for a while, that this attempt created nothing. */
export async function markRechecked(em: EntityManager, attemptId: string): Promise<void> {
  await em.query(`UPDATE attempts SET rechecked_at = now() WHERE id = $1 AND status = 'failed'`, [attemptId]);
}

/**
 * The other attempts of `attemptId`'s refund that already succeeded: with the late one, the customer was refunded
 * twice. Read after lockOpenRefundSiblings, so a retry that committed its success while this transaction waited
 * on its row lock (and so left that list) is seen here.
 */
export async function succeededRefundSiblings(em: EntityManager, attemptId: string): Promise<Array<{ id: string; providerRef: string | null }>> {
  const rows = await em.query<Array<{ id: string; provider_ref: string | null }>>(
    `SELECT x.id, x.provider_ref FROM attempts x
      WHERE x.refund_id = (SELECT refund_id FROM attempts WHERE id = $1) AND x.operation = 'refund' AND x.id <> $1 AND x.status = 'succeeded'
      ORDER BY x.created_at`,
    [attemptId],
  );
  return rows.map((r) => ({ id: r.id, providerRef: r.provider_ref }));
}

/** An open attempt of the same refund as a late-refunded one, as read under its row lock. */
export interface OpenRefundSibling {
  id: string;
  status: 'pending' | 'unknown';
  leaseHeld: boolean;
  httpAttempts: number;
  lastError: { reason?: unknown } | null;
  providerRef: string | null;
  idempotencyKey: string;
}

/**
 * The other attempts of `attemptId`'s refund still open (at most one: `uq_attempts_open_per_refund`), locked FOR
 * UPDATE after the charge and the attempt (the applier's order), so no claim to send can be taken meanwhile.
 */
export async function lockOpenRefundSiblings(em: EntityManager, attemptId: string): Promise<OpenRefundSibling[]> {
  const rows = await em.query<Array<{ id: string; status: 'pending' | 'unknown'; lease_held: boolean; http_attempts: number; last_error: { reason?: unknown } | null; provider_ref: string | null; idempotency_key: string }>>(
    `SELECT x.id, x.status, x.lease_expires_at IS NOT NULL AS lease_held, x.http_attempts, x.last_error, x.provider_ref, x.idempotency_key
       FROM attempts x
      WHERE x.refund_id = (SELECT refund_id FROM attempts WHERE id = $1) AND x.operation = 'refund' AND x.id <> $1
        AND x.status IN ('pending', 'unknown')
      ORDER BY x.created_at FOR UPDATE OF x`,
    [attemptId],
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    leaseHeld: r.lease_held,
    httpAttempts: r.http_attempts,
    lastError: r.last_error,
    providerRef: r.provider_ref,
    idempotencyKey: r.idempotency_key,
  }));
}
