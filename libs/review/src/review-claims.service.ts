import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { writeReviewAudit } from './items/review-audit.writer.js';
import { ReviewClaimedByAnotherError, ReviewStateConflictError } from './review.errors.js';
import type { ReviewItemView } from './review-item.view.js';
import { ReviewQueueService } from './review-queue.service.js';
import { msInterval } from '@app/database';

/**
 * One reviewer at a time. A claim is a conditional update (open, or claimed but expired by the database
 * clock), so of two reviewers racing exactly one gets the row; an abandoned claim lapses by itself.
 */
@Injectable()
export class ReviewClaimsService {
  private readonly logger = new Logger(ReviewClaimsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly config: AppConfig,
  ) {}

  async claim(id: string, actor: string): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      // The row lock orders racing claimers; the conditional update below is what decides.
      const [before] = await em.query<Array<{ lapsed_claim_of: string | null }>>(
        `SELECT CASE WHEN state = 'claimed' THEN claimed_by END AS lapsed_claim_of FROM review_items WHERE id = $1 FOR UPDATE`,
        [id],
      );
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items
            SET state = 'claimed', claimed_by = $2, claimed_at = now(),
                claim_expires_at = now() + ${msInterval('$3')}, updated_at = now()
          WHERE id = $1 AND (state = 'open' OR (state = 'claimed' AND claim_expires_at <= now()))`,
        [id, actor, this.config.REVIEW_CLAIM_TTL_MS],
      );
      if (!before || affected !== 1) throw await this.refusal(id);
      const lapsed = before.lapsed_claim_of;
      await writeReviewAudit(em, {
        reviewItemId: id,
        actor,
        action: 'claim',
        stateBefore: 'open',
        stateAfter: 'claimed',
        evidence: lapsed ? { lapsedClaimOf: lapsed } : null,
      });
      this.logger.log({ reviewItemId: id, actor, lapsedClaimOf: lapsed }, 'review item claimed');
      return this.queue.get(id, em);
    });
  }

  /** Only the holder releases; a claim that already lapsed is released all the same (it changes nothing for others). */
  async release(id: string, actor: string): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items SET state = 'open', claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND state = 'claimed' AND claimed_by = $2`,
        [id, actor],
      );
      if (affected !== 1) throw await this.refusal(id, actor);
      await writeReviewAudit(em, { reviewItemId: id, actor, action: 'release', stateBefore: 'claimed', stateAfter: 'open' });
      return this.queue.get(id, em);
    });
  }

  private async refusal(id: string, releasingActor?: string): Promise<Error> {
    const item = await this.queue.get(id);
    if (item.state === 'claimed' && item.claimedBy !== releasingActor) {
      return new ReviewClaimedByAnotherError(id, item.claimedBy ?? '?', item.claimExpiresAt ?? '?');
    }
    return new ReviewStateConflictError(id, item.state, releasingActor ? 'claimed by you' : 'open');
  }
}
