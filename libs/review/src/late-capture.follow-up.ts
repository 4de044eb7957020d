import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttemptSender, capturedProviderChargeId, isCapture } from '@app/attempts';
import type { AttemptEntity, ReviewFollowUp } from '@app/database';
import { RefundOpener } from '@app/refunds';
import type { ReviewItemRow } from './review-item.view.js';
import { ReviewFollowUpMismatchError } from './review.errors.js';

/**
 * What a person can do about a capture the provider made after we had failed the attempt: the customer paid, and
 * no acknowledgement changes that. `keep_capture` fulfils the order; `refund_capture` refunds the capture through
 * the charge's own refund path (its amount committed against what was captured, under the charge lock, capped by
 * the charge's CHECK like every refund), in the acknowledgement's transaction. Anything else is refused, so the
 * item cannot close on a choice that leaves the money unanswered.
 */
@Injectable()
export class LateCaptureFollowUp {
  constructor(
    private readonly refunds: RefundOpener,
    private readonly sender: AttemptSender,
  ) {}

  /**
   * Inside the acknowledgement's transaction, after it locked the charge. Returns the refund attempt to send once
   * that transaction has committed, or null.
   */
  async applyWithin(em: EntityManager, row: ReviewItemRow, followUp: ReviewFollowUp, refundProviderChargeId: string | null, actor: string): Promise<AttemptEntity | null> {
    const [held] = await em.query<Array<{ late_capture_provider_charge_id: string | null; refundable: string | null }>>(
      `SELECT a.late_capture_provider_charge_id, c.amount_cents - c.refund_committed_cents AS refundable
         FROM attempts a LEFT JOIN charges c ON c.id = a.charge_id WHERE a.id = $1`,
      [row.attempt_id],
    );
    // Any capture of this charge (late or not, by any of its attempts) is refunded through the charge, never a proposal.
    if (followUp === 'refund_needed' && refundProviderChargeId && row.charge_id) {
      const [own] = await em.query<Array<{ id: string }>>(
        `SELECT a.id FROM attempts a
          WHERE a.charge_id = $1 AND a.operation = 'charge' AND ${isCapture('a')} AND ${capturedProviderChargeId('a')} = $2`,
        [row.charge_id, refundProviderChargeId],
      );
      if (own) throw new ReviewFollowUpMismatchError(followUp, `${refundProviderChargeId} is this charge's own capture (attempt ${own.id}): refund it through the charge (refund_capture, or POST /charges/:id/refunds), under its cap`);
    }
    const capture = held?.late_capture_provider_charge_id ?? null;
    if (!capture) {
      if (followUp === 'keep_capture' || followUp === 'refund_capture') {
        throw new ReviewFollowUpMismatchError(followUp, 'the provider holds no late capture for this attempt; use refund_needed, no_action or recorded_externally');
      }
      return null;
    }
    if (followUp === 'no_action') throw new ReviewFollowUpMismatchError(followUp, `the customer paid through ${capture}: choose keep_capture (fulfil the order) or refund_capture (refund it)`);
    if (followUp === 'refund_needed' && refundProviderChargeId === capture) {
      throw new ReviewFollowUpMismatchError(followUp, `${capture} is this charge's own capture: refund it with refund_capture, through the charge's refund path and its cap`);
    }
    if (followUp !== 'refund_capture') return null;
    const refundable = Number(held.refundable ?? 0);
    if (refundable <= 0) throw new ReviewFollowUpMismatchError(followUp, 'the whole capture is already refunded or being refunded');
    const { attempt } = await this.refunds.create({ chargeId: row.charge_id!, merchantId: null, amountCents: refundable, reason: `late capture ${capture} refunded by review item ${row.id}` }, actor, em);
    return attempt;
  }

  /** After the commit: the refund's first send, by the one sender (a failure to reach the provider is retried like any). */
  async send(attempt: AttemptEntity | null, actor: string): Promise<void> {
    if (attempt) await this.sender.sendClaimed(attempt, actor);
  }
}
