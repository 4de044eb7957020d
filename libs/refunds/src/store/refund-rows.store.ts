import type { EntityManager } from 'typeorm';
import { RefundEntity } from '@app/database';

/**
 * The one writer of `refunds`: a refund row is created and its held amount released or held again only here, so
 * the refund's outbox triggers see every change and a new path cannot write a refund without being added here.
 * Nothing here imports another library but database (attempts release a failed refund through it). Each function
 * runs in its caller's transaction.
 */

export async function insertRefund(em: EntityManager, refund: RefundEntity): Promise<void> {
  await em.insert(RefundEntity, refund);
}

/**
 * Marks the refund's held amount given back, exactly once: the conditional update on `released_at` is the guard.
 * Null when it was already released (nothing to give back again); otherwise its charge (null for a proposal's
 * refund, which held nothing against a charge of ours) and the amount to give back.
 */
export async function markRefundReleased(em: EntityManager, refundId: string): Promise<{ chargeId: string | null; amountCents: string } | null> {
  const [released] = await em.query<[Array<{ charge_id: string | null; amount_cents: string }>, number]>(
    `UPDATE refunds SET released_at = now(), updated_at = now() WHERE id = $1 AND released_at IS NULL RETURNING charge_id, amount_cents`,
    [refundId],
  );
  return released.length === 1 ? { chargeId: released[0].charge_id, amountCents: released[0].amount_cents } : null;
}

/** A retry of a released refund holds its amount again; the caller has already held it on the charge, under its lock. */
export async function markRefundHeldAgain(em: EntityManager, refundId: string): Promise<void> {
  const [, affected] = await em.query<[unknown, number]>(`UPDATE refunds SET released_at = NULL, updated_at = now() WHERE id = $1 AND released_at IS NOT NULL`, [refundId]);
  if (affected !== 1) throw new Error(`refund ${refundId} changed under the charge lock`);
}
