import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { REVIEW_FOLLOW_UPS, type ReviewFollowUp } from '@app/database';
import { actionFitsGap, needsSecondReviewer, type ReviewAction } from './rules/review-decision-rules.js';
import { isAttemptItem, type ReviewItemRow, type ReviewItemView } from './review-item.view.js';
import { ReviewAcknowledgeDecision } from './review-acknowledge.decision.js';
import { assertActionFits, countDecision } from './review-decision.outcome.js';
import { ReviewFourEyesDecision } from './review-four-eyes.decision.js';
import { ReviewGapDecision } from './review-gap.decision.js';
import { ReviewMoneyDecision } from './review-money.decision.js';
import { ReviewQueueService } from './review-queue.service.js';
import { ReviewActionNotAllowedError, ReviewClaimRequiredError, ReviewInputInvalidError } from './review.errors.js';

export interface DecisionInput {
  action: ReviewAction;
  providerChargeId?: string;
  followUp?: ReviewFollowUp;
  reason: string;
}

/**
 * A claimant's decision on an item, sent to the kind that carries it out: a gap item closes on a person's word
 * (ReviewGapDecision), `acknowledge` closes an item about a terminal attempt (ReviewAcknowledgeDecision), and
 * `succeeded` / `failed` move an unknown attempt with proof (ReviewMoneyDecision), through a second reviewer
 * above the four-eyes threshold (ReviewFourEyesDecision).
 */
@Injectable()
export class ReviewDecisionService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly money: ReviewMoneyDecision,
    private readonly fourEyes: ReviewFourEyesDecision,
    private readonly acknowledgement: ReviewAcknowledgeDecision,
    private readonly gap: ReviewGapDecision,
    private readonly config: AppConfig,
  ) {}

  async decide(id: string, actor: string, input: DecisionInput): Promise<ReviewItemView> {
    validate(input);
    const item = await this.queue.row(id, this.db.manager);
    if (item.state !== 'claimed' || item.claimed_by !== actor) throw new ReviewClaimRequiredError(id, item.state, item.claimed_by);
    if (!isAttemptItem(item)) return this.closeGap(item, actor, input);
    const row = item;
    assertActionFits(input.action, row);
    if (input.action === 'acknowledge') return this.acknowledgement.acknowledge(row, actor, input.followUp!, input.reason, input.providerChargeId ?? null);
    const providerChargeId = input.action === 'succeeded' ? input.providerChargeId! : null;
    const evidence = await this.money.verify(row, input.action, providerChargeId, actor);
    if (needsSecondReviewer(input.action, Number(row.amount_cents), this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS)) {
      return this.fourEyes.propose(row, actor, input.action, providerChargeId, input.reason, evidence);
    }
    return this.money.apply({ row, actor, action: input.action, providerChargeId, reason: input.reason, evidence, from: 'claimed' });
  }

  /** The second pair of eyes: re-asks the provider, then applies the first reviewer's decision. */
  confirm(id: string, actor: string, reason: string): Promise<ReviewItemView> {
    return this.fourEyes.confirm(id, actor, reason);
  }

  /** The second reviewer disagrees: the item goes back to the queue, the proposal stays in the audit trail. */
  reject(id: string, actor: string, reason: string): Promise<ReviewItemView> {
    return this.fourEyes.reject(id, actor, reason);
  }

  private closeGap(row: ReviewItemRow, actor: string, input: DecisionInput): Promise<ReviewItemView> {
    const fit = actionFitsGap(input.action, input.followUp);
    if (!fit.ok) {
      countDecision(input.action, 'refused', row);
      throw new ReviewActionNotAllowedError(input.action, 'none', fit.why);
    }
    return this.gap.close(row, actor, input.followUp as 'recorded_externally' | 'no_action', input.reason);
  }
}

function validate(input: DecisionInput): void {
  if (input.action === 'succeeded' && !input.providerChargeId) throw new ReviewInputInvalidError('providerChargeId', 'a succeeded decision names the provider charge that proves it');
  const namesRefund = input.action === 'acknowledge' && input.followUp === 'refund_needed';
  if (namesRefund && !input.providerChargeId) throw new ReviewInputInvalidError('providerChargeId', 'refund_needed names the provider charge to give back');
  if (input.action !== 'succeeded' && !namesRefund && input.providerChargeId) throw new ReviewInputInvalidError('providerChargeId', 'only succeeded, or acknowledge with refund_needed, names a provider charge');
  if (input.action === 'acknowledge' && !input.followUp) throw new ReviewInputInvalidError('followUp', `acknowledge needs a follow-up: ${REVIEW_FOLLOW_UPS.join(', ')}`);
  if (input.action !== 'acknowledge' && input.followUp) throw new ReviewInputInvalidError('followUp', 'only acknowledge takes a follow-up');
}
