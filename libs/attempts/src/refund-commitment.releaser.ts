import type { EntityManager } from 'typeorm';
import { releaseRefundAmount } from '@app/charges/store';
import { markRefundReleased } from '@app/refunds/store';
import { openReviewItem } from '@app/review/items';

/**
 * A refund holds its amount on the charge (`refund_committed_cents`) from the transaction that creates it.
 * When its attempt is failed, the refund gives the amount back, exactly once: the conditional update on
 * `released_at` is the guard, and its row count decides whether the charge is decremented. Runs in the
 * transaction of the failing transition, which already holds the charge row lock (or, for the refund of a
 * proposal, which belongs to no charge, its refund row's).
 */
export async function releaseFailedRefund(em: EntityManager, attemptId: string, refundId: string): Promise<void> {
  const released = await markRefundReleased(em, refundId);
  // A refund of a proposal committed nothing against a charge of ours: there is nothing to give back.
  if (!released?.chargeId) return;
  await releaseRefundAmount(em, released.chargeId, released.amountCents);
  await reviewUnexplainedProviderRefunds(em, attemptId, released.chargeId);
}

/**
 * The provider's own refunded total (from its events) must be explained by refunds of ours that succeeded, may
 * still succeed, or that the provider made after we had failed them. Failing one that the total needed means money went back that our record no longer
 * shows: a person looks, with this attempt as the evidence.
 */
async function reviewUnexplainedProviderRefunds(em: EntityManager, attemptId: string, chargeId: string): Promise<void> {
  const [row] = await em.query<Array<{ reported: string; explained: string }>>(
    `SELECT c.refunded_cents AS reported,
            COALESCE((SELECT sum(r.amount_cents) FROM refunds r WHERE r.charge_id = c.id AND r.released_at IS NULL), 0)
              + COALESCE((SELECT sum(x.late_refund_amount_cents) FROM attempts x
                           WHERE x.charge_id = c.id AND x.operation = 'refund' AND x.late_refunded_at IS NOT NULL), 0) AS explained
       FROM charges c WHERE c.id = $1`,
    [chargeId],
  );
  if (row && Number(row.reported) > Number(row.explained)) {
    await openReviewItem(em, attemptId, 'provider_refund_unexplained', { reportedRefundedCents: Number(row.reported), explainedCents: Number(row.explained) });
  }
}
