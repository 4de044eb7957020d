import type { DataSource, EntityManager } from 'typeorm';
import { AttemptTransitionEntity, AttemptEntity, isUniqueViolation, preparedQuery } from '@app/database';
import type { AttemptStatus } from '../rules/attempt-status.js';
import { isTerminal } from '../rules/attempt-status.js';
import { canTransition, type TransitionCause } from '../rules/attempt-state-machine.js';
import { IllegalTransitionError } from '../attempts.errors.js';

/**
 * Status changes. Every one is `UPDATE ... WHERE id AND status = from` with its row count checked and its audit row
 * written in the same transaction: two writers racing on one row produce one transition, the loser gets nothing
 * back and must re-read. A provider charge id is never swapped for another (that is a second charge for a person).
 */

export interface AttemptTransition {
  attemptId: string;
  from: AttemptStatus;
  to: AttemptStatus;
  cause: TransitionCause;
  actor: string;
  /** Columns to write together with the status. */
  set?: Partial<Pick<AttemptEntity, 'providerRef' | 'lastError'>>;
  /** Only the process that holds the send claim numbered this may record its result. */
  expectHttpAttempts?: number;
  /** The sender recording its own response: the send ended now (the resolver's grace counts from here). */
  sendEnded?: boolean;
  /** Only while the sender's lease has run out: a sender that recorded its result meanwhile wins. */
  expectLeaseExpired?: boolean;
  detail?: Record<string, unknown>;
}

/** What the transitioned row says about itself, for the settlement that follows in the same transaction. */
export interface TransitionedAttempt {
  provider: string;
  unknown_since: Date | null;
  operation: string;
  refund_id: string | null;
  payout_id: string | null;
}

/** The first audit row of an attempt: it exists, pending, with its key stored. */
export async function recordCreation(em: EntityManager, attemptId: string, actor: string): Promise<void> {
  await em.insert(AttemptTransitionEntity, { attemptId, fromStatus: null, toStatus: 'pending', cause: 'submit', actor, detail: null });
}

/** The general form: the conditional update and its audit row; null when the guard matched nothing. */
export async function transitionAttempt(em: EntityManager, t: AttemptTransition): Promise<TransitionedAttempt | null> {
  const terminal = isTerminal(t.to);
  const { providerRef, ...otherColumns } = t.set ?? {};
  const query = em
    .createQueryBuilder()
    .update(AttemptEntity)
    .set({
      ...otherColumns,
      // Evidence is never erased: a result that names no provider charge keeps the one a webhook stored.
      ...(providerRef ? { providerRef } : {}),
      status: t.to,
      leaseExpiresAt: null,
      nextSendAt: null,
      // A sender whose lease ran out may have been on the wire until the lease's end, not longer.
      ...(t.sendEnded ? { lastSendEndedAt: () => 'clock_timestamp()' } : {}),
      ...(t.expectLeaseExpired ? { lastSendEndedAt: () => 'GREATEST(last_send_ended_at, lease_expires_at)' } : {}),
      ...(t.to === 'unknown' ? { unknownSince: () => 'now()' } : {}),
      ...(terminal ? { resolvedAt: () => 'now()', resolvedBy: t.cause } : {}),
    })
    .where('id = :id AND status = :from', { id: t.attemptId, from: t.from })
    // Property names: TypeORM maps them to columns (raw rows are keyed by column name).
    .returning(['provider', 'unknownSince', 'operation', 'refundId', 'payoutId']);
  // Never swap one provider charge for another: that is a second charge for a person, not an update.
  if (providerRef) query.andWhere('(provider_ref IS NULL OR provider_ref = :ref)', { ref: providerRef });
  if (t.expectHttpAttempts !== undefined) query.andWhere('http_attempts = :n', { n: t.expectHttpAttempts });
  if (t.expectLeaseExpired) query.andWhere('lease_expires_at < now()');
  const result = await query.execute();
  if (result.affected !== 1) return null;
  await em.insert(AttemptTransitionEntity, {
    attemptId: t.attemptId,
    fromStatus: t.from,
    toStatus: t.to,
    cause: t.cause,
    actor: t.actor,
    detail: t.detail ?? null,
  });
  return (result.raw as TransitionedAttempt[])[0];
}

/** What the send wrote, under the attempt's own names (a caller merges it into the attempt it holds). */
export interface SettledSend {
  status: 'succeeded' | 'failed' | 'unknown';
  providerRef: string | null;
  lastError: object | null;
  resolvedAt: Date | null;
}

/**
 * The charge fast path of `transitionAttempt` plus the send's evidence: result, evidence and transition in one
 * statement, one commit. The UPDATE carries the same guard (status still `pending`, the claim still ours by
 * `http_attempts`, never swapping one provider charge for another): its row lock is taken before the inserts'
 * foreign-key checks (which run at the end of the statement), so the attempt is written before the evidence that
 * references it, the lock order every writer keeps. When the UPDATE matches nothing, nothing at all is written and
 * null comes back: the sender then records through the full path (late facts through ProviderFactApplier).
 */
export async function settleChargeSend(
  db: DataSource,
  s: { attemptId: string; claimed: number; to: SettledSend['status']; providerChargeId: string | null; lastError: object | null; actor: string; transitionDetail: object; call: { outcome: string; httpStatus: number | null; durationMs: number; detail: object } },
): Promise<SettledSend | null> {
  // The same state table as every other writer (and the database's trigger on attempts.status).
  if (!canTransition('pending', s.to)) throw new IllegalTransitionError(s.attemptId, 'pending', s.to);
  const settle = preparedQuery<{ provider_ref: string | null; resolved_at: Date | null }>(
    db,
    'hot_settle_charge_send',
    `WITH settled AS (
       UPDATE attempts
          SET status = $3, provider_ref = COALESCE($4, provider_ref), last_error = $5,
              lease_expires_at = NULL, next_send_at = NULL, last_send_ended_at = clock_timestamp(),
              unknown_since = CASE WHEN $3 = 'unknown' THEN now() ELSE unknown_since END,
              resolved_at = CASE WHEN $3 IN ('succeeded', 'failed') THEN now() ELSE resolved_at END,
              resolved_by = CASE WHEN $3 IN ('succeeded', 'failed') THEN 'submit' ELSE resolved_by END,
              updated_at = now()
        WHERE id = $1 AND operation = 'charge' AND status = 'pending' AND http_attempts = $2
          AND ($4::text IS NULL OR provider_ref IS NULL OR provider_ref = $4)
        RETURNING id, provider_ref, resolved_at),
     transition AS (
       INSERT INTO attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
       SELECT id, 'pending', $3, 'submit', $6, $7 FROM settled),
     evidence AS (
       INSERT INTO provider_calls (attempt_id, kind, outcome, http_status, duration_ms, detail)
       SELECT id, 'create', $8, $9, $10, $11 FROM settled)
     SELECT provider_ref, resolved_at FROM settled`,
    [s.attemptId, s.claimed, s.to, s.providerChargeId, s.lastError, s.actor, s.transitionDetail, s.call.outcome, s.call.httpStatus, Math.round(s.call.durationMs), s.call.detail],
  );
  // A success the charge cannot hold (another attempt captured meanwhile): nothing written; the full path takes the
  // fact to the applier, which keeps it for a person.
  const [row] = await settle.catch((error: unknown) => {
    if (isUniqueViolation(error, 'uq_attempts_one_capture_per_charge')) return [];
    throw error;
  });
  return row ? { status: s.to, providerRef: row.provider_ref, lastError: s.lastError, resolvedAt: row.resolved_at } : null;
}
