import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { closeAcknowledged } from './acknowledge.close.js';
import type { ReviewItemRow, ReviewItemView } from './review-item.view.js';
import { ReviewQueueService } from './review-queue.service.js';
import { reviewDecisionsTotal } from './review.metrics.js';
import { ReviewClaimRequiredError } from './review.errors.js';

/**
 * Closes a `reconciliation_gap` item on a person's word (the fitting follow-up is checked by the caller), in one
 * transaction conditional on the claim. No money and no attempt move; the day's runs stay as they were.
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
      if (!(await closeAcknowledged(em, row.id, actor, followUp, reason, { followUp, provider: row.provider, day: row.gap_day }))) {
        const now = await this.queue.get(row.id, em);
        throw new ReviewClaimRequiredError(row.id, now.state, now.claimedBy);
      }
      reviewDecisionsTotal.inc({ action: 'acknowledge', result: 'applied' });
      this.logger.log({ reviewItemId: row.id, provider: row.provider, day: row.gap_day, actor, followUp }, 'unreconciled day closed by a person');
      return this.queue.get(row.id, em);
    });
  }
}
