import type { EntityManager } from 'typeorm';
import { providerRefundedBesideOurs, releaseRefundAmount } from '@app/charges/store';
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
 * still succeed, or that the provider made after we had failed them and has not reversed: the cap's own terms
 * (providerRefundedBesideOurs). Failing one that the total needed means money went back that our record no longer
 * shows: a person looks, with this attempt as the evidence.
 */
async function reviewUnexplainedProviderRefunds(em: EntityManager, attemptId: string, chargeId: string): Promise<void> {
  const { reportedCents, oursCents } = await providerRefundedBesideOurs(em, chargeId);
  if (reportedCents > oursCents) {
    await openReviewItem(em, attemptId, 'provider_refund_unexplained', { reportedRefundedCents: reportedCents, explainedCents: oursCents });
  }
}
