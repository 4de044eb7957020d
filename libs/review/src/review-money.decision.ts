import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptTransitionWriter } from '@app/attempts';
import { AppConfig } from '@app/config';
import { AttemptEntity, isUniqueViolation } from '@app/database';
import { writeReviewAudit } from './items/review-audit.writer.js';
import type { AttemptItemRow, ReviewItemView } from './review-item.view.js';
import { claimLost, countDecision, stateChanged } from './review-decision.outcome.js';
import { ReviewProviderCheck, checkSubjectOf, type ProviderEvidence } from './review-provider-check.service.js';
import { ReviewQueueService } from './review-queue.service.js';
import { lockReviewedAttempt } from './reviewed-attempt.lock.js';
import { ReviewAttemptSettledError, ReviewProviderEvidenceError, ReviewSecondProviderChargeError } from './review.errors.js';

export type MoneyAction = 'succeeded' | 'failed';

export interface Applying {
  row: AttemptItemRow;
  actor: string;
  action: MoneyAction;
  providerChargeId: string | null;
  reason: string;
  evidence: ProviderEvidence;
  /** `claimed`: a decision under the threshold; `awaiting_second`: the second reviewer's confirmation. */
  from: 'claimed' | 'awaiting_second';
}

/**
 * `succeeded` / `failed`: decisions that move an unknown attempt, with proof. The provider is asked first, outside
 * any transaction; then one transaction locks the attempt, changes the item (conditional on its state and
 * claimant, row count checked), applies the attempt's transition through the one transition writer, and appends
 * the audit row. Whatever settled the attempt in between (a webhook, the resolver) wins, and the decision is a
 * 409 that says so.
 */
@Injectable()
export class ReviewMoneyDecision {
  private readonly logger = new Logger('ReviewDecisionService');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly check: ReviewProviderCheck,
    private readonly transitions: AttemptTransitionWriter,
    private readonly config: AppConfig,
  ) {}

  async verify(row: AttemptItemRow, action: MoneyAction, providerChargeId: string | null, actor: string): Promise<ProviderEvidence> {
    const attempt = await this.db.getRepository(AttemptEntity).findOneByOrFail({ id: row.attempt_id });
    const subject = checkSubjectOf(row, attempt);
    try {
      if (action === 'failed') return await this.check.verifyFailed(subject, actor);
      if (attempt.providerRef && attempt.providerRef !== providerChargeId) {
        const why = `the provider already named ${attempt.providerRef} for this attempt, not ${providerChargeId}`;
        throw new ReviewProviderEvidenceError('succeeded', why, { attemptProviderChargeId: attempt.providerRef });
      }
      return await this.check.verifySucceeded(subject, providerChargeId!, actor);
    } catch (error) {
      if (error instanceof ReviewProviderEvidenceError) countDecision(action, 'refused', row, actor);
      throw error;
    }
  }

  async apply(p: Applying): Promise<ReviewItemView> {
    try {
      return await this.db.transaction((em) => this.applyIn(em, p));
    } catch (error) {
      // A second success for the charge: the provider took the money twice. Never applied; a person refunds.
      if (p.action !== 'succeeded' || !isUniqueViolation(error)) throw error;
      await this.escalate(p);
      throw new ReviewSecondProviderChargeError(p.row.id, p.providerChargeId ?? '');
    }
  }

  private async applyIn(em: EntityManager, p: Applying): Promise<ReviewItemView> {
    const { row, actor } = p;
    // The attempt first: webhooks lock the attempt before its review item, so the same order cannot deadlock.
    const attempt = await lockReviewedAttempt(em, row.attempt_id, this.config.CONSISTENT_LOOKUP_GRACE_MS, p.evidence.queriedAt);
    if (attempt.status !== 'unknown') throw new ReviewAttemptSettledError(row.attempt_id, attempt.status, attempt.resolved_by);
    if (p.action === 'failed' && !attempt.queried_after_grace) {
      throw new ReviewProviderEvidenceError('failed', 'the provider query was made before the grace period ended', p.evidence);
    }
    // A webhook or late answer named a provider charge since the query: the charge exists, so "nothing was charged" is false.
    if (p.action === 'failed' && attempt.provider_charge_id) {
      throw new ReviewProviderEvidenceError('failed', `the provider named charge ${attempt.provider_charge_id} for this attempt since the query`, p.evidence);
    }
    const [, affected] =
      p.from === 'claimed'
        ? await em.query<[unknown[], number]>(
            `UPDATE review_items SET state = 'closed', decision = $3, decision_reason = $4, decision_provider_charge_id = $5,
                    decided_by = $2, decided_at = now(), closed_at = now(), updated_at = now()
              WHERE id = $1 AND state = 'claimed' AND claimed_by = $2 AND claim_expires_at > now()`,
            [row.id, actor, p.action, p.reason, p.providerChargeId],
          )
        : await em.query<[unknown[], number]>(
            `UPDATE review_items SET state = 'closed', confirmed_by = $2, confirmed_at = now(), closed_at = now(), updated_at = now()
              WHERE id = $1 AND state = 'awaiting_second' AND decided_by = $3 AND decided_by <> $2 AND decision = $4`,
            [row.id, actor, row.decided_by, p.action],
          );
    if (affected !== 1) throw p.from === 'claimed' ? await claimLost(this.queue, row.id) : await stateChanged(this.queue, row.id, 'awaiting_second');
    const moved = await this.transitions.apply(
      {
        attemptId: row.attempt_id,
        from: 'unknown',
        to: p.action,
        cause: 'reviewer',
        actor,
        set: p.providerChargeId ? { providerRef: p.providerChargeId } : {},
        detail: { reviewItemId: row.id, reason: p.reason, ...(p.from === 'awaiting_second' ? { decidedBy: row.decided_by, confirmedBy: actor } : {}) },
      },
      em,
    );
    if (!moved) throw new ReviewAttemptSettledError(row.attempt_id, 'settled', null);
    await writeReviewAudit(em, {
      reviewItemId: row.id,
      actor,
      action: p.from === 'claimed' ? 'decide' : 'confirm',
      decision: p.action,
      reason: p.reason,
      stateBefore: p.from,
      stateAfter: 'closed',
      evidence: p.evidence,
    });
    countDecision(p.action, p.from === 'claimed' ? 'applied' : 'confirmed', row, actor);
    return this.queue.get(row.id, em);
  }

  private async escalate(p: Applying): Promise<void> {
    await this.db.transaction(async (em) => {
      const [item] = await em.query<Array<{ reason: string; state: string }>>(`SELECT reason, state FROM review_items WHERE id = $1 FOR UPDATE`, [p.row.id]);
      if (!item || item.state === 'closed') return;
      await em.query(`UPDATE review_items SET reason = 'duplicate_provider_charges', updated_at = now() WHERE id = $1 AND state <> 'closed'`, [p.row.id]);
      await writeReviewAudit(em, {
        reviewItemId: p.row.id,
        actor: p.actor,
        action: 'escalate',
        decision: p.action,
        reason: 'recording this success would give the charge a second one',
        stateBefore: item.state,
        stateAfter: item.state,
        evidence: { fromReason: item.reason, toReason: 'duplicate_provider_charges', providerChargeId: p.providerChargeId, provider: p.evidence },
      });
    });
    this.logger.warn({ reviewItemId: p.row.id, attemptId: p.row.attempt_id, chargeId: p.row.charge_id, providerChargeId: p.providerChargeId }, 'second provider charge found by a reviewer');
    countDecision(p.action, 'refused', p.row, p.actor);
  }
}
