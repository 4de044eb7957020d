import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { writeReviewAudit } from './review-audit.writer.js';
import type { ReviewItemRow, ReviewItemView } from './review-item.view.js';
import { ReviewQueueService } from './review-queue.service.js';
import { reviewDecisionsTotal } from './review.metrics.js';
import { ReviewClaimRequiredError } from './review.errors.js';

/**
 * Closes a `reconciliation_gap` item on a person's word (the fitting follow-up is checked by the caller): one
 * transaction changes the item conditionally on its claim (row count checked) and appends the audit row. No money
 * and no attempt move; the day's runs stay as they were.
 */
@Injectable()
export class ReviewGapDecision {
  private readonly logger = new Logger(ReviewGapDecision.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
  ) {}

  async close(row: ReviewItemRow, actor: string, followUp: 'recorded_externally' | 'no_action', reason: string): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items SET state = 'closed', decision = 'acknowledge', follow_up = $3, decision_reason = $4,
                decided_by = $2, decided_at = now(), closed_at = now(), updated_at = now()
          WHERE id = $1 AND state = 'claimed' AND claimed_by = $2 AND claim_expires_at > now() AND attempt_id IS NULL`,
        [row.id, actor, followUp, reason],
      );
      if (affected !== 1) {
        const now = await this.queue.get(row.id, em);
        throw new ReviewClaimRequiredError(row.id, now.state, now.claimedBy);
      }
      await writeReviewAudit(em, {
        reviewItemId: row.id,
        actor,
        action: 'decide',
        decision: 'acknowledge',
        reason,
        stateBefore: 'claimed',
        stateAfter: 'closed',
        evidence: { followUp, provider: row.provider, day: row.gap_day },
      });
      reviewDecisionsTotal.inc({ action: 'acknowledge', result: 'applied' });
      this.logger.log({ reviewItemId: row.id, provider: row.provider, day: row.gap_day, actor, followUp }, 'unreconciled day closed by a person');
      return this.queue.get(row.id, em);
    });
  }
}
