import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptSender, capturedProviderChargeId, isCapture, lockProviderCharge } from '@app/attempts';
import { AppConfig } from '@app/config';
import { RefundProposalEntity, type RefundProposalState } from '@app/database';
import { RefundOpener } from '@app/refunds';
import { RefundProposalDecidedError, RefundProposalNotFoundError, RefundProposalSelfApprovalError, RefundProposalStaleError } from './reconciliation.errors.js';
import { refundProposalView, type RefundProposalView } from './reconciliation.views.js';

/**
 * A person decides whether money the provider holds without a success of ours goes back. Approving executes
 * the proposal: under the proposal's row lock, the refund and its first attempt (key and exact payload) are
 * created and the proposal moves to `executed` in one transaction, so two admins approving at once produce
 * one refund (the unique `refunds.proposal_id` is the last word). The send follows the commit, through the
 * one sender; everything after it is the attempt model's.
 */
@Injectable()
export class RefundProposalsService {
  private readonly logger = new Logger(RefundProposalsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly opener: RefundOpener,
    private readonly sender: AttemptSender,
    private readonly config: AppConfig,
  ) {}

  async list(state?: RefundProposalState): Promise<RefundProposalView[]> {
    const rows = await this.db.getRepository(RefundProposalEntity).find({ where: state ? { state } : {}, order: { createdAt: 'ASC' }, take: 500 });
    return rows.map(refundProposalView);
  }

  async approve(id: string, actor: string, note: string | null): Promise<RefundProposalView> {
    const { proposal, attempt } = await this.db.transaction(async (em) => {
      const locked = await this.lockProposed(em, id);
      // Four eyes by person: who proposed giving the money back never approves it, and a large amount takes two
      // approvers (the CHECKs are the last word).
      if (locked.proposedBy === actor || locked.approvedBy === actor) throw new RefundProposalSelfApprovalError(id, actor);
      if (locked.state === 'proposed' && locked.amountCents >= this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS) {
        await em.query(
          `UPDATE refund_proposals SET state = 'awaiting_second', approved_by = $2, approved_at = now(), decision_note = $3, updated_at = now()
            WHERE id = $1 AND state = 'proposed'`,
          [id, actor, note],
        );
        return { proposal: await em.getRepository(RefundProposalEntity).findOneByOrFail({ id }), attempt: null };
      }
      await this.refuseIfOurs(em, locked);
      const opened = await this.opener.openForProposal(em, locked, actor);
      const decided = await this.decide(em, id, 'executed', actor, note, opened.refund.id);
      return { proposal: decided, attempt: opened.attempt };
    });
    if (!attempt) {
      this.logger.log({ refundProposalId: id, providerChargeId: proposal.providerChargeId, actor }, 'refund proposal approved once: it waits for a second admin');
      return refundProposalView(proposal);
    }
    this.logger.log({ refundProposalId: id, providerChargeId: proposal.providerChargeId, refundId: proposal.refundId, actor }, 'refund proposal approved and executed');
    await this.sender.sendClaimed(attempt, actor);
    return refundProposalView(proposal);
  }

  async reject(id: string, actor: string, note: string): Promise<RefundProposalView> {
    const proposal = await this.db.transaction(async (em) => {
      await this.lockProposed(em, id);
      return this.decide(em, id, 'rejected', actor, note, null);
    });
    this.logger.log({ refundProposalId: id, providerChargeId: proposal.providerChargeId, actor }, 'refund proposal rejected');
    return refundProposalView(proposal);
  }

  /**
   * A proposal is a snapshot of one night: since then the provider charge may have become (or may be about to
   * become) the success of one of our attempts, a resolver or a webhook having settled it. Refunding it then would
   * refund a customer's only payment; a person looks again instead. Under the charge's row lock when the proposal
   * names our charge, so no attempt of it settles in between.
   */
  private async refuseIfOurs(em: EntityManager, proposal: RefundProposalEntity): Promise<void> {
    if (proposal.chargeId) await em.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [proposal.chargeId]);
    // The lock the fact applier takes before recording this provider charge as a success: one of the two waits.
    await lockProviderCharge(em, proposal.provider, proposal.providerChargeId);
    // Ours when it is a charge's capture (a success, or a late capture of an attempt we failed: that one is refunded
    // through its charge, under the charge's cap), or when it may still become one: an attempt that holds it, or an
    // open attempt of a charge that has no capture yet. Once the charge is captured by another provider charge, this
    // one can never be the charge's payment: a duplicate, refundable here.
    const [ours] = await em.query<Array<{ id: string; status: string }>>(
      `SELECT a.id, a.status FROM charge_attempts a
        WHERE a.operation = 'charge' AND a.provider = $1
          AND ((${isCapture('a')} AND ${capturedProviderChargeId('a')} = $2)
               OR ((a.provider_charge_id = $2 OR (a.charge_id = $3 AND a.status IN ('pending', 'unknown')))
                   AND a.status <> 'failed'
                   AND NOT EXISTS (SELECT 1 FROM charge_attempts c
                                    WHERE c.charge_id = a.charge_id AND c.operation = 'charge' AND c.id <> a.id AND ${isCapture('c')})))
        LIMIT 1`,
      [proposal.provider, proposal.providerChargeId, proposal.chargeId],
    );
    if (ours) throw new RefundProposalStaleError(proposal.id, ours.id, ours.status);
  }

  private async lockProposed(em: EntityManager, id: string): Promise<RefundProposalEntity> {
    const proposal = await em.getRepository(RefundProposalEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!proposal) throw new RefundProposalNotFoundError(id);
    if (proposal.state !== 'proposed' && proposal.state !== 'awaiting_second') throw new RefundProposalDecidedError(id, proposal.state);
    return proposal;
  }

  /** Conditional on `proposed`, row count checked: the lock makes a miss a bug, never a second decision. */
  private async decide(em: EntityManager, id: string, to: 'executed' | 'rejected', actor: string, note: string | null, refundId: string | null): Promise<RefundProposalEntity> {
    const [rows] = await em.query<[unknown[], number]>(
      `UPDATE refund_proposals SET state = $2, decided_by = $3, decided_at = now(), decision_note = $4, refund_id = $5, updated_at = now()
        WHERE id = $1 AND state IN ('proposed', 'awaiting_second') RETURNING id`,
      [id, to, actor, note, refundId],
    );
    if (rows.length !== 1) throw new Error(`refund proposal ${id} left 'proposed' under its row lock`);
    return em.getRepository(RefundProposalEntity).findOneByOrFail({ id });
  }
}
