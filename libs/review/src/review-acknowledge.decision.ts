import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { AttemptEntity, type ReviewFollowUp } from '@app/database';
import { closeAcknowledged } from './items/acknowledge.close.js';
import { LateCaptureFollowUp } from './late-capture.follow-up.js';
import type { AttemptItemRow, ReviewItemView } from './review-item.view.js';
import { claimLost, countDecision } from './review-decision.outcome.js';
import { ReviewProviderCheck, checkSubjectOf } from './review-provider-check.service.js';
import { ReviewQueueService } from './review-queue.service.js';
import { lockReviewedAttempt } from './reviewed-attempt.lock.js';
import { ReviewAttemptSettledError, ReviewInputInvalidError } from './review.errors.js';

/**
 * `acknowledge`: an item about an attempt that is already terminal (a late truth) closes with a follow-up saying
 * what a person did about it; the attempt never moves. Money to give back becomes a refund proposal, or the late
 * capture's refund, in the same commit as the close.
 */
@Injectable()
export class ReviewAcknowledgeDecision {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly check: ReviewProviderCheck,
    private readonly lateCapture: LateCaptureFollowUp,
    private readonly config: AppConfig,
  ) {}

  async acknowledge(row: AttemptItemRow, actor: string, followUp: ReviewFollowUp, reason: string, refundProviderChargeId: string | null): Promise<ReviewItemView> {
    if (followUp === 'refund_needed' && !row.charge_id) throw new ReviewInputInvalidError('followUp', 'refund_needed is for money taken from a customer; this item is not about a charge');
    // The provider is asked first, outside any transaction: the charge to give back must be this charge's captured money.
    const proof = followUp === 'refund_needed' && refundProviderChargeId ? await this.proveRefundable(row, refundProviderChargeId, actor) : null;
    const refundToSend = await this.db.transaction(async (em) => {
      // The charge first, in the order every writer takes it: a late capture's refund commits against it below.
      if (row.charge_id) await em.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [row.charge_id]);
      // Terminal statuses never change, but the lock keeps the check and the close in one picture.
      const status = await lockReviewedAttempt(em, row.attempt_id, this.config.CONSISTENT_LOOKUP_GRACE_MS);
      if (status.status !== 'succeeded' && status.status !== 'failed') throw new ReviewAttemptSettledError(row.attempt_id, status.status, status.resolved_by);
      const evidence = { followUp, attemptStatus: status.status, ...(refundProviderChargeId ? { refundProviderChargeId } : {}), ...(proof ? { provider: proof.evidence } : {}) };
      if (!(await closeAcknowledged(em, row.id, actor, followUp, reason, evidence))) throw await claimLost(this.queue, row.id);
      // Money to give back becomes a refund proposal in the same commit as the close: an admin approves it, and
      // approving executes it once (and refuses a provider charge that is our attempt's own success).
      if (followUp === 'refund_needed' && refundProviderChargeId && proof) {
        // The provider charge's own amount, as retrieved: never the charge's, never typed by a person.
        await em.query(
          `INSERT INTO refund_proposals (id, review_item_id, provider, provider_charge_id, charge_id, amount_cents, currency, reason, state, proposed_by)
           VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, 'review', 'proposed', $7)`,
          [row.id, row.provider, refundProviderChargeId, row.charge_id, proof.amountCents, proof.currency, actor],
        );
      }
      // A capture the provider made after we failed the attempt is kept or refunded, never left unanswered.
      const refund = await this.lateCapture.applyWithin(em, row, followUp, refundProviderChargeId, actor);
      countDecision('acknowledge', 'applied', row, actor);
      return refund;
    });
    await this.lateCapture.send(refundToSend, actor);
    return this.queue.get(row.id);
  }

  private async proveRefundable(row: AttemptItemRow, providerChargeId: string, actor: string) {
    const attempt = await this.db.getRepository(AttemptEntity).findOneByOrFail({ id: row.attempt_id });
    return this.check.verifyRefundable(checkSubjectOf(row, attempt), providerChargeId, actor);
  }
}
