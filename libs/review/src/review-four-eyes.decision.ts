import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { writeReviewAudit } from './items/review-audit.writer.js';
import { isAttemptItem, type AttemptItemRow, type ReviewItemView } from './review-item.view.js';
import { assertActionFits, claimLost, countDecision, stateChanged } from './review-decision.outcome.js';
import { ReviewMoneyDecision, type MoneyAction } from './review-money.decision.js';
import type { ProviderEvidence } from './review-provider-check.service.js';
import { ReviewQueueService } from './review-queue.service.js';
import { ReviewSecondReviewerRequiredError, ReviewStateConflictError } from './review.errors.js';

/**
 * Above REVIEW_FOUR_EYES_AMOUNT_CENTS a money decision is a proposal (`awaiting_second`) until a second person,
 * never the first, confirms it (the provider asked again) or rejects it (the item goes back to the queue).
 */
@Injectable()
export class ReviewFourEyesDecision {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly money: ReviewMoneyDecision,
  ) {}

  async propose(row: AttemptItemRow, actor: string, action: MoneyAction, providerChargeId: string | null, reason: string, evidence: ProviderEvidence): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items SET state = 'awaiting_second', decision = $3, decision_reason = $4, decision_provider_charge_id = $5,
                decided_by = $2, decided_at = now(), claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND state = 'claimed' AND claimed_by = $2 AND claim_expires_at > now()`,
        [row.id, actor, action, reason, providerChargeId],
      );
      if (affected !== 1) throw await claimLost(this.queue, row.id);
      await writeReviewAudit(em, { reviewItemId: row.id, actor, action: 'decide', decision: action, reason, stateBefore: 'claimed', stateAfter: 'awaiting_second', evidence });
      countDecision(action, 'awaiting_second', row, actor);
      return this.queue.get(row.id, em);
    });
  }

  /** The second pair of eyes: re-asks the provider, then applies the first reviewer's decision. */
  async confirm(id: string, actor: string, reason: string): Promise<ReviewItemView> {
    const row = await this.queue.row(id, this.db.manager);
    // A gap item is never awaiting a second reviewer: it moves no money.
    if (row.state !== 'awaiting_second' || !isAttemptItem(row)) throw new ReviewStateConflictError(id, row.state, 'awaiting_second');
    if (row.decided_by === actor) throw new ReviewSecondReviewerRequiredError(id, actor);
    const action = row.decision as MoneyAction;
    assertActionFits(action, row);
    const evidence = await this.money.verify(row, action, row.decision_provider_charge_id, actor);
    return this.money.apply({ row, actor, action, providerChargeId: row.decision_provider_charge_id, reason, evidence, from: 'awaiting_second' });
  }

  /** The second reviewer disagrees: the item goes back to the queue, the proposal stays in the audit trail. */
  async reject(id: string, actor: string, reason: string): Promise<ReviewItemView> {
    const row = await this.queue.row(id, this.db.manager);
    if (row.state !== 'awaiting_second') throw new ReviewStateConflictError(id, row.state, 'awaiting_second');
    if (row.decided_by === actor) throw new ReviewSecondReviewerRequiredError(id, actor);
    return this.db.transaction(async (em) => {
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items SET state = 'open', decision = NULL, decision_reason = NULL, decision_provider_charge_id = NULL,
                decided_by = NULL, decided_at = NULL, updated_at = now()
          WHERE id = $1 AND state = 'awaiting_second' AND decided_by = $2 AND decided_by <> $3`,
        [id, row.decided_by, actor],
      );
      if (affected !== 1) throw await stateChanged(this.queue, id, 'awaiting_second');
      const proposal = { action: row.decision, reason: row.decision_reason, providerChargeId: row.decision_provider_charge_id, decidedBy: row.decided_by };
      await writeReviewAudit(em, { reviewItemId: id, actor, action: 'reject', decision: row.decision, reason, stateBefore: 'awaiting_second', stateAfter: 'open', evidence: { rejectedProposal: proposal } });
      countDecision(row.decision ?? 'unknown', 'rejected', row, actor);
      return this.queue.get(id, em);
    });
  }
}
