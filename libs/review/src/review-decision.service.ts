import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptTransitionWriter } from '@app/attempts';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity, isUniqueViolation, REVIEW_FOLLOW_UPS, type ReviewFollowUp, msInterval } from '@app/database';
import { actionFitsAttempt, actionFitsGap, needsSecondReviewer, type AttemptStatusSeen, type ReviewAction } from './rules/review-decision-rules.js';
import { LateCaptureFollowUp } from './late-capture.follow-up.js';
import { writeReviewAudit } from './items/review-audit.writer.js';
import { closeAcknowledged } from './items/acknowledge.close.js';
import { isAttemptItem, type AttemptItemRow, type ReviewItemRow, type ReviewItemView } from './review-item.view.js';
import { ReviewGapDecision } from './review-gap.decision.js';
import { ReviewProviderCheck, type CheckSubject, type ProviderEvidence } from './review-provider-check.service.js';
import { ReviewQueueService } from './review-queue.service.js';
import { reviewDecisionsTotal } from './review.metrics.js';
import {
  ReviewActionNotAllowedError,
  ReviewAttemptSettledError,
  ReviewClaimRequiredError,
  ReviewInputInvalidError,
  ReviewProviderEvidenceError,
  ReviewSecondProviderChargeError,
  ReviewSecondReviewerRequiredError,
  ReviewStateConflictError,
} from './review.errors.js';

export interface DecisionInput {
  action: ReviewAction;
  providerChargeId?: string;
  followUp?: ReviewFollowUp;
  reason: string;
}

type MoneyAction = 'succeeded' | 'failed';

interface Applying {
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
 * Decisions with proof. The provider is asked first, outside any transaction; then one transaction locks the
 * attempt, changes the item (conditional on its state and claimant, row count checked), applies the
 * attempt's transition through the one transition writer, and appends the audit row. Whatever settled the
 * attempt in between (a webhook, the resolver) wins, and the decision is a 409 that says so.
 */
@Injectable()
export class ReviewDecisionService {
  private readonly logger = new Logger(ReviewDecisionService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: ReviewQueueService,
    private readonly check: ReviewProviderCheck,
    private readonly transitions: AttemptTransitionWriter,
    private readonly lateCapture: LateCaptureFollowUp,
    private readonly gap: ReviewGapDecision,
    private readonly config: AppConfig,
  ) {}

  async decide(id: string, actor: string, input: DecisionInput): Promise<ReviewItemView> {
    validate(input);
    const item = await this.queue.row(id, this.db.manager);
    if (item.state !== 'claimed' || item.claimed_by !== actor) throw new ReviewClaimRequiredError(id, item.state, item.claimed_by);
    if (!isAttemptItem(item)) return this.closeGap(item, actor, input);
    const row = item;
    this.assertFits(input.action, row);
    if (input.action === 'acknowledge') return this.acknowledge(row, actor, input.followUp!, input.reason, input.providerChargeId ?? null);
    const providerChargeId = input.action === 'succeeded' ? input.providerChargeId! : null;
    const evidence = await this.verify(row, input.action, providerChargeId, actor);
    if (needsSecondReviewer(input.action, Number(row.amount_cents), this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS)) {
      return this.propose(row, actor, input.action, providerChargeId, input.reason, evidence);
    }
    return this.apply({ row, actor, action: input.action, providerChargeId, reason: input.reason, evidence, from: 'claimed' });
  }

  /** The second pair of eyes: re-asks the provider, then applies the first reviewer's decision. */
  async confirm(id: string, actor: string, reason: string): Promise<ReviewItemView> {
    const row = await this.queue.row(id, this.db.manager);
    // A gap item is never awaiting a second reviewer: it moves no money.
    if (row.state !== 'awaiting_second' || !isAttemptItem(row)) throw new ReviewStateConflictError(id, row.state, 'awaiting_second');
    if (row.decided_by === actor) throw new ReviewSecondReviewerRequiredError(id, actor);
    const action = row.decision as MoneyAction;
    this.assertFits(action, row);
    const evidence = await this.verify(row, action, row.decision_provider_charge_id, actor);
    return this.apply({ row, actor, action, providerChargeId: row.decision_provider_charge_id, reason, evidence, from: 'awaiting_second' });
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
      if (affected !== 1) throw await this.stateChanged(id, 'awaiting_second');
      const proposal = { action: row.decision, reason: row.decision_reason, providerChargeId: row.decision_provider_charge_id, decidedBy: row.decided_by };
      await writeReviewAudit(em, { reviewItemId: id, actor, action: 'reject', decision: row.decision, reason, stateBefore: 'awaiting_second', stateAfter: 'open', evidence: { rejectedProposal: proposal } });
      this.count(row.decision ?? 'unknown', 'rejected', row, actor);
      return this.queue.get(id, em);
    });
  }

  private closeGap(row: ReviewItemRow, actor: string, input: DecisionInput): Promise<ReviewItemView> {
    const fit = actionFitsGap(input.action, input.followUp);
    if (!fit.ok) {
      this.count(input.action, 'refused', row);
      throw new ReviewActionNotAllowedError(input.action, 'none', fit.why);
    }
    return this.gap.close(row, actor, input.followUp as 'recorded_externally' | 'no_action', input.reason);
  }

  private assertFits(action: ReviewAction, row: AttemptItemRow): void {
    const fit = actionFitsAttempt(action, row.attempt_status as AttemptStatusSeen);
    if (fit.ok) return;
    this.count(action, 'refused', row);
    throw new ReviewActionNotAllowedError(action, row.attempt_status, fit.why);
  }

  private async verify(row: AttemptItemRow, action: MoneyAction, providerChargeId: string | null, actor: string): Promise<ProviderEvidence> {
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: row.attempt_id });
    const subject: CheckSubject = {
      reviewItemId: row.id,
      attemptId: row.attempt_id,
      chargeId: row.charge_id,
      customerId: row.customer_id,
      provider: row.provider,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      attemptCreatedAt: attempt.createdAt,
      attemptProviderChargeId: attempt.providerChargeId,
    };
    try {
      if (action === 'failed') return await this.check.verifyFailed(subject, actor);
      if (attempt.providerChargeId && attempt.providerChargeId !== providerChargeId) {
        const why = `the provider already named ${attempt.providerChargeId} for this attempt, not ${providerChargeId}`;
        throw new ReviewProviderEvidenceError('succeeded', why, { attemptProviderChargeId: attempt.providerChargeId });
      }
      return await this.check.verifySucceeded(subject, providerChargeId!, actor);
    } catch (error) {
      if (error instanceof ReviewProviderEvidenceError) this.count(action, 'refused', row, actor);
      throw error;
    }
  }

  private async acknowledge(row: AttemptItemRow, actor: string, followUp: ReviewFollowUp, reason: string, refundProviderChargeId: string | null): Promise<ReviewItemView> {
    if (followUp === 'refund_needed' && !row.charge_id) throw new ReviewInputInvalidError('followUp', 'refund_needed is for money taken from a customer; this item is not about a charge');
    // The provider is asked first, outside any transaction: the charge to give back must be this charge's captured money.
    const proof = followUp === 'refund_needed' && refundProviderChargeId ? await this.proveRefundable(row, refundProviderChargeId, actor) : null;
    const refundToSend = await this.db.transaction(async (em) => {
      // The charge first, in the order every writer takes it: a late capture's refund commits against it below.
      if (row.charge_id) await em.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [row.charge_id]);
      // Terminal statuses never change, but the lock keeps the check and the close in one picture.
      const status = await this.lockAttempt(em, row.attempt_id);
      if (status.status !== 'succeeded' && status.status !== 'failed') throw new ReviewAttemptSettledError(row.attempt_id, status.status, status.resolved_by);
      const evidence = { followUp, attemptStatus: status.status, ...(refundProviderChargeId ? { refundProviderChargeId } : {}), ...(proof ? { provider: proof.evidence } : {}) };
      if (!(await closeAcknowledged(em, row.id, actor, followUp, reason, evidence))) throw await this.claimLost(row.id);
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
      this.count('acknowledge', 'applied', row, actor);
      return refund;
    });
    await this.lateCapture.send(refundToSend, actor);
    return this.queue.get(row.id);
  }

  private async proveRefundable(row: AttemptItemRow, providerChargeId: string, actor: string) {
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: row.attempt_id });
    return this.check.verifyRefundable(
      {
        reviewItemId: row.id, attemptId: row.attempt_id, chargeId: row.charge_id, customerId: row.customer_id, provider: row.provider,
        amountCents: Number(row.amount_cents), currency: row.currency, attemptCreatedAt: attempt.createdAt, attemptProviderChargeId: attempt.providerChargeId,
      },
      providerChargeId,
      actor,
    );
  }

  private async propose(row: AttemptItemRow, actor: string, action: MoneyAction, providerChargeId: string | null, reason: string, evidence: ProviderEvidence): Promise<ReviewItemView> {
    return this.db.transaction(async (em) => {
      const [, affected] = await em.query<[unknown[], number]>(
        `UPDATE review_items SET state = 'awaiting_second', decision = $3, decision_reason = $4, decision_provider_charge_id = $5,
                decided_by = $2, decided_at = now(), claimed_by = NULL, claimed_at = NULL, claim_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND state = 'claimed' AND claimed_by = $2 AND claim_expires_at > now()`,
        [row.id, actor, action, reason, providerChargeId],
      );
      if (affected !== 1) throw await this.claimLost(row.id);
      await writeReviewAudit(em, { reviewItemId: row.id, actor, action: 'decide', decision: action, reason, stateBefore: 'claimed', stateAfter: 'awaiting_second', evidence });
      this.count(action, 'awaiting_second', row, actor);
      return this.queue.get(row.id, em);
    });
  }

  private async apply(p: Applying): Promise<ReviewItemView> {
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
    const attempt = await this.lockAttempt(em, row.attempt_id, p.evidence.queriedAt);
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
    if (affected !== 1) throw p.from === 'claimed' ? await this.claimLost(row.id) : await this.stateChanged(row.id, 'awaiting_second');
    const moved = await this.transitions.apply(
      {
        attemptId: row.attempt_id,
        from: 'unknown',
        to: p.action,
        cause: 'reviewer',
        actor,
        set: p.providerChargeId ? { providerChargeId: p.providerChargeId } : {},
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
    this.count(p.action, p.from === 'claimed' ? 'applied' : 'confirmed', row, actor);
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
    this.count(p.action, 'refused', p.row, p.actor);
  }

  private async lockAttempt(em: EntityManager, attemptId: string, queriedAt: string | null = null): Promise<{ status: string; resolved_by: string | null; provider_charge_id: string | null; queried_after_grace: boolean }> {
    const [row] = await em.query<Array<{ status: string; resolved_by: string | null; provider_charge_id: string | null; queried_after_grace: boolean }>>(
      `SELECT status, resolved_by, provider_charge_id,
              coalesce($2::timestamptz >= coalesce(last_send_ended_at, last_sent_at, created_at) + ${msInterval('$3')}, false) AS queried_after_grace
         FROM charge_attempts WHERE id = $1 FOR UPDATE`,
      [attemptId, queriedAt, this.config.CONSISTENT_LOOKUP_GRACE_MS],
    );
    return row;
  }

  private async claimLost(id: string): Promise<Error> {
    const item = await this.queue.get(id);
    return new ReviewClaimRequiredError(id, item.state, item.claimedBy);
  }

  private async stateChanged(id: string, needed: string): Promise<Error> {
    const item = await this.queue.get(id);
    return new ReviewStateConflictError(id, item.state, needed);
  }

  private count(action: string, result: string, row: ReviewItemRow, actor?: string): void {
    reviewDecisionsTotal.inc({ action, result });
    this.logger.log({ reviewItemId: row.id, attemptId: row.attempt_id, chargeId: row.charge_id, provider: row.provider, actor, action, result }, 'review decision');
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
