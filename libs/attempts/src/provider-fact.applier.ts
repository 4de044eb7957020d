import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { uniqueOrNull } from '@app/database';
import { AttemptSettlementHooks } from './attempt-settlement.hooks.js';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { AttemptNotFoundError } from './attempts.errors.js';
import { lockChargeAndAttempt } from './charge-lock.query.js';
import { recordLateCapture } from './late-capture.recorder.js';
import { recordLateDebit } from './late-debit.recorder.js';
import { recordLateRefund } from './late-refund.recorder.js';
import { stopLaterRefundAttempts } from './late-refund-retry.stopper.js';
import { lockProviderCharge } from './provider-charge.lock.js';
import { openReviewItem, reaskAsSuccessAfterFailure } from '@app/review/items';
import type { TransitionCause } from './rules/attempt-state-machine.js';
import { teachProviderChargeId } from './store/attempt-facts.store.js';
import { decideProviderFact, type FactDisposition, type ProviderFact } from './rules/provider-fact.js';

export interface FactSource {
  cause: TransitionCause;
  actor: string;
  /** Where the fact came from (event id, lookup summary, http attempt...): kept with the transition or item. */
  evidence: Record<string, unknown>;
}

/**
 * The one place a provider fact meets our record, whichever channel brought it (a late response, a
 * resolution query, a webhook, a re-check before a new attempt). Runs in the caller's transaction, after
 * the caller stored its evidence, so the evidence and its consequence commit together: an open attempt
 * moves, an agreeing fact changes nothing, and a contradicting one opens a review item under the charge
 * lock, so the charge refuses new attempts until a person has decided. Nothing is ever dropped.
 */
@Injectable()
export class ProviderFactApplier {
  private readonly logger = new Logger(ProviderFactApplier.name);

  constructor(
    private readonly transitions: AttemptTransitionWriter,
    private readonly hooks: AttemptSettlementHooks,
  ) {}

  async apply(em: EntityManager, attemptId: string, fact: ProviderFact, source: FactSource): Promise<FactDisposition> {
    const attempt = await lockChargeAndAttempt(em, attemptId);
    if (!attempt) throw new AttemptNotFoundError(attemptId);
    // The capture (or payout transfer) we already recorded for this failed attempt, reported again (a redelivery,
    // CONFIRMED then RECEIVED, the statement after the webhook).
    if (attempt.status === 'failed' && fact.outcome === 'succeeded' && fact.providerChargeId !== null && fact.providerChargeId === attempt.lateCaptureProviderChargeId) {
      return { action: 'none', reason: 'already_in_that_state' };
    }
    const decision = decideProviderFact(fact, attempt, attempt);
    // Whoever else decides about this provider charge (a refund proposal's approval) waits for this commit.
    if (fact.outcome === 'succeeded' && fact.providerChargeId) await lockProviderCharge(em, attempt.provider, fact.providerChargeId);
    const findings = { ...source.evidence, cause: source.cause, fact, recordedStatus: attempt.status, recordedProviderChargeId: attempt.providerChargeId };
    if (decision.action === 'transition') {
      const moved = await uniqueOrNull(em, () =>
        this.transitions.apply(
          { attemptId, from: attempt.status, to: decision.to, cause: source.cause, actor: source.actor, set: { providerRef: fact.providerChargeId }, detail: source.evidence },
          em,
        ),
      );
      // The database refused: a second success for the charge, or a provider charge another attempt owns. An open
      // attempt must then never be sent again: it becomes unknown, before a person, with the evidence.
      if (moved === null) {
        if (attempt.status === 'pending') {
          await this.transitions.apply({ attemptId, from: 'pending', to: 'unknown', cause: source.cause, actor: source.actor, detail: { reason: 'second_capture_refused', ...source.evidence } }, em);
        }
        return this.review(em, attemptId, 'duplicate_provider_charges', findings);
      }
      // Cannot happen while we hold the attempt's lock; if it ever does, nothing moved and nothing is claimed.
      return moved ? decision : { action: 'none', reason: 'not_actionable' };
    }
    if (decision.action === 'review') {
      // A success for an attempt we failed is a capture the provider holds: recorded beside the `failed`, so the
      // charge is paid and never opens another attempt, whatever a person later acknowledges.
      const capture = await recordLateCapture(em, attempt, fact, source);
      // A payout's transfer that left after we released its money: debited now, what the account lacks owed.
      const lateDebit = await recordLateDebit(this.hooks, em, attempt, fact);
      // A refund we had failed that the provider made: its amount is back in the charge's refund cap in this commit.
      const lateRefund = await recordLateRefund(em, attempt, fact);
      // Its retry, if one is open, must not refund the customer a second time.
      const retries = lateRefund ? await stopLaterRefundAttempts(this.transitions, em, attemptId, lateRefund.providerRefundId, source) : [];
      // Money that left twice (a second capture, or a refund's retry that had already refunded) is what a person sees first.
      const twice = capture === 'second_capture' || retries.some((r) => r.outcome === 'already_refunded');
      const reviewed = await this.review(em, attemptId, twice ? 'duplicate_provider_charges' : decision.reason, {
        ...findings,
        lateCapture: capture,
        ...(lateDebit ? { lateDebit } : {}),
        ...(lateRefund ? { lateRefund: { ...lateRefund, countedInCap: true, retries } } : {}),
      });
      // An item opened when the provider only showed a pending charge (or transfer) now asks about money that moved.
      if (capture === 'recorded' || lateDebit !== null) {
        await reaskAsSuccessAfterFailure(em, attemptId);
      }
      return reviewed;
    }
    const taughtId = fact.providerChargeId;
    if (taughtId && !attempt.providerChargeId && attempt.status !== 'failed') {
      // Progress still teaches us the provider's id, which turns the next lookup into a direct retrieve.
      const taught = await uniqueOrNull(em, async () => {
        await teachProviderChargeId(em, attemptId, taughtId);
        return true;
      });
      if (taught === null) return this.review(em, attemptId, 'duplicate_provider_charges', findings);
    }
    return decision;
  }

  private async review(em: EntityManager, attemptId: string, reason: Extract<FactDisposition, { action: 'review' }>['reason'], findings: Record<string, unknown>): Promise<FactDisposition> {
    this.logger.warn({ attemptId, reason, cause: findings.cause }, 'provider fact contradicts our record');
    await openReviewItem(em, attemptId, reason, findings);
    return { action: 'review', reason };
  }
}
