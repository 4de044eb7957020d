import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { closeAcknowledged } from './items/acknowledge.close.js';
import type { ReviewItemRow, ReviewItemView } from './review-item.view.js';
import { ReviewQueueService } from './review-queue.service.js';
import { reviewDecisionsTotal } from './review.metrics.js';
import { AppConfig } from '@app/config';
import { ReviewActionNotAllowedError, ReviewClaimRequiredError } from './review.errors.js';

/**
 * Closes a `reconciliation_gap` item on a person's word (the fitting follow-up is checked by the caller), in one
 * transaction conditional on the claim. No money and no attempt move; the day's runs stay as they were. A day that
 * holds money of ours at that provider is never closed as `no_action` ("nothing to reconcile"): closed, the day is
 * never looked at again, so only `recorded_externally` (reconciled by hand) or a succeeded run may close it.
 */
@Injectable()
export class ReviewGapDecision {
  private readonly logger = new Logger(ReviewGapDecision.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly config: AppConfig,
  ) {}

  async close(row: ReviewItemRow, actor: string, followUp: 'recorded_externally' | 'no_action', reason: string): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      if (followUp === 'no_action') {
        const [{ n }] = await em.query<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM attempts
            WHERE provider = $1 AND status IN ('succeeded', 'unknown') AND (created_at AT TIME ZONE $3)::date = $2::date`,
          [row.provider, row.gap_day, this.config.RECONCILIATION_TZ],
        );
        if (n > 0) throw new ReviewActionNotAllowedError('no_action', 'gap', `${n} attempts of ours at ${String(row.provider)} on ${String(row.gap_day)} are succeeded or unknown: reconcile the day (run it, or record it as reconciled by hand)`);
      }
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
