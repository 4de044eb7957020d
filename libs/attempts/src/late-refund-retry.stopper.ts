import type { EntityManager } from 'typeorm';
import { openReviewItem } from '@app/review/items';
import type { AttemptTransitionWriter } from './attempt-transition.writer.js';
import type { TransitionCause } from './rules/attempt-state-machine.js';
import { sendProvedUnreceived } from './rules/key-lifetime.js';
import { lockOpenRefundSiblings, succeededRefundSiblings } from './store/attempt-facts.store.js';

/** What became of a later attempt of the refund when an earlier one turned out refunded. */
export interface StoppedRetry {
  attemptId: string;
  /**
   * `not_sent`: nothing of it reached the provider, failed so it never is; `may_have_reached`: unknown, for a person;
   * `already_refunded`: it had succeeded, so the customer was refunded twice (the late attempt's item says so).
   */
  outcome: 'not_sent' | 'may_have_reached' | 'already_refunded';
  providerRefundId: string | null;
}

/**
 * The provider refunded an earlier attempt of this refund after we had failed it and opened a retry: the retry
 * would refund the customer a second time. Runs under the charge lock, in the fact's transaction, after
 * recordLateRefund. A retry that provably never reached the provider (pending, no send claim held, every send
 * refused before processing) is failed, so no claim to send can ever be taken on it; its failure gives back the
 * amount it held again (the late refund is counted on its own). One that may have reached the provider (a claim
 * held, a send not proved unreceived, or already unknown) is never guessed at: it is unknown, and a person
 * decides with both provider refunds as evidence.
 */
export async function stopLaterRefundAttempts(
  transitions: AttemptTransitionWriter,
  em: EntityManager,
  lateAttemptId: string,
  lateProviderRefundId: string,
  source: { cause: TransitionCause; actor: string },
): Promise<StoppedRetry[]> {
  const stopped: StoppedRetry[] = [];
  for (const sibling of await lockOpenRefundSiblings(em, lateAttemptId)) {
    const evidence = { reason: 'refund_made_by_earlier_attempt', lateRefundedAttemptId: lateAttemptId, lateProviderRefundId };
    const neverSent = sibling.status === 'pending' && !sibling.leaseHeld && (sibling.httpAttempts === 0 || sendProvedUnreceived(sibling.lastError));
    if (neverSent) {
      const moved = await transitions.apply({ attemptId: sibling.id, from: 'pending', to: 'failed', cause: source.cause, actor: source.actor, detail: evidence }, em);
      // Its row is locked by this transaction: a miss means the record is not what we read, so nothing commits.
      if (!moved) throw new Error(`refund attempt ${sibling.id} changed under its row lock`);
      stopped.push({ attemptId: sibling.id, outcome: 'not_sent', providerRefundId: null });
      continue;
    }
    if (sibling.status === 'pending') {
      const moved = await transitions.apply({ attemptId: sibling.id, from: 'pending', to: 'unknown', cause: source.cause, actor: source.actor, detail: evidence }, em);
      if (!moved) throw new Error(`refund attempt ${sibling.id} changed under its row lock`);
    }
    await openReviewItem(em, sibling.id, 'duplicate_provider_charges', {
      ...evidence,
      cause: source.cause,
      retryAttemptId: sibling.id,
      retryIdempotencyKey: sibling.idempotencyKey,
      retryProviderRefundId: sibling.providerRef,
      retryStatusBefore: sibling.status,
      retrySendClaimHeld: sibling.leaseHeld,
      retryHttpAttempts: sibling.httpAttempts,
    });
    stopped.push({ attemptId: sibling.id, outcome: 'may_have_reached', providerRefundId: sibling.providerRef });
  }
  for (const done of await succeededRefundSiblings(em, lateAttemptId)) stopped.push({ attemptId: done.id, outcome: 'already_refunded', providerRefundId: done.providerRef });
  return stopped;
}
