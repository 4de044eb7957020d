import { Logger } from '@nestjs/common';
import { actionFitsAttempt, type AttemptStatusSeen, type ReviewAction } from './rules/review-decision-rules.js';
import type { AttemptItemRow, ReviewItemRow } from './review-item.view.js';
import type { ReviewQueueService } from './review-queue.service.js';
import { reviewDecisionsTotal } from './review.metrics.js';
import { ReviewActionNotAllowedError, ReviewClaimRequiredError, ReviewStateConflictError } from './review.errors.js';

// One logger name for every kind of decision, so a decision's log line reads the same whichever file made it.
const logger = new Logger('ReviewDecisionService');

/** Every decision, refused or applied, is counted and logged once with what it was about. */
export function countDecision(action: string, result: string, row: ReviewItemRow, actor?: string): void {
  reviewDecisionsTotal.inc({ action, result });
  logger.log({ reviewItemId: row.id, attemptId: row.attempt_id, chargeId: row.charge_id, provider: row.provider, actor, action, result }, 'review decision');
}

/** A conditional update found the claim gone (lapsed, or taken): the refusal names who holds the item now. */
export async function claimLost(queue: ReviewQueueService, id: string): Promise<Error> {
  const item = await queue.get(id);
  return new ReviewClaimRequiredError(id, item.state, item.claimedBy);
}

/** A conditional update found the item in another state than the decision needs. */
export async function stateChanged(queue: ReviewQueueService, id: string, needed: string): Promise<Error> {
  const item = await queue.get(id);
  return new ReviewStateConflictError(id, item.state, needed);
}

/** The action must fit the attempt as the queue last read it (the transaction checks again under the lock). */
export function assertActionFits(action: ReviewAction, row: AttemptItemRow): void {
  const fit = actionFitsAttempt(action, row.attempt_status as AttemptStatusSeen);
  if (fit.ok) return;
  countDecision(action, 'refused', row);
  throw new ReviewActionNotAllowedError(action, row.attempt_status, fit.why);
}
