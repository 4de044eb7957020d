import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptSender, capturedProviderChargeId, isCapture, lockProviderCharge } from '@app/attempts';
import { AppConfig } from '@app/config';
import { RefundProposalEntity, type RefundProposalState } from '@app/database';
import { RefundOpener, proposalRefundIdOf } from '@app/refunds';
import { ProposalProviderCheck } from './proposal-provider.check.js';
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
    private readonly check: ProposalProviderCheck,
  ) {}

  /** Oldest first, at most `limit` (the list page shows 500; an export asks for more rather than dropping the newest). */
  async list(state?: RefundProposalState, limit = 500): Promise<RefundProposalView[]> {
    const rows = await this.db.getRepository(RefundProposalEntity).find({ where: state ? { state } : {}, order: { createdAt: 'ASC', id: 'ASC' }, take: limit });
    return rows.map(refundProposalView);
  }

  async approve(id: string, actor: string, note: string | null): Promise<RefundProposalView> {
    const checked = await this.checkAtProvider(id, actor);
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
      const charge = await this.refuseIfOurs(em, locked, checked);
      // A capture of an attempt we had failed is that charge's money: given back through it, under its cap.
      const opened = charge
        ? await this.opener.create({ chargeId: charge, merchantId: null, amountCents: locked.amountCents, reason: locked.reason, refundId: proposalRefundIdOf(locked.id) }, actor, em)
        : await this.opener.openForProposal(em, locked, actor);
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
   * The fresh provider check, outside any transaction, when this approval would execute (not a first of two). What it
   * vouches for is used under the locks below only if nothing moved meanwhile.
   */
  private async checkAtProvider(id: string, actor: string): Promise<boolean> {
    const proposal = await this.db.getRepository(RefundProposalEntity).findOneBy({ id });
    // Missing, decided or self-approved: the transaction refuses it with the right answer.
    if (!proposal || (proposal.state !== 'proposed' && proposal.state !== 'awaiting_second')) return false;
    if (proposal.proposedBy === actor || proposal.approvedBy === actor) return false;
    if (proposal.state === 'proposed' && proposal.amountCents >= this.config.REVIEW_FOUR_EYES_AMOUNT_CENTS) return false;
    return this.check.run(proposal, actor);
  }

  /**
   * A proposal is a snapshot of one night: since then the provider charge may have become (or may be about to
   * become) the success of one of our attempts, a resolver or a webhook having settled it. Refunding it then would
   * refund a customer's only payment; a person looks again instead. Under the charge's row lock when the proposal
   * names our charge, so no attempt of it settles in between. One exception: the late capture of an attempt we had
   * failed, once the fresh provider check vouched for it, returns its charge, through which it is refunded.
   */
  private async refuseIfOurs(em: EntityManager, proposal: RefundProposalEntity, checked: boolean): Promise<string | null> {
    // Every charge involved is locked first, in id order, as every writer takes a charge before the provider charge.
    const [late] = await em.query<Array<{ charge_id: string }>>(
      `SELECT charge_id FROM attempts WHERE operation = 'charge' AND provider = $1 AND late_capture_provider_charge_id = $2`,
      [proposal.provider, proposal.providerChargeId],
    );
    const charges = [...new Set([proposal.chargeId, late?.charge_id].filter((c): c is string => Boolean(c)))].sort();
    for (const chargeId of charges) await em.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [chargeId]);
    // The lock the fact applier takes before recording this provider charge as a success: one of the two waits.
    await lockProviderCharge(em, proposal.provider, proposal.providerChargeId);
    // Ours when it is a charge's capture (a success, or a late capture of an attempt we failed: that one is refunded
    // through its charge, under the charge's cap), or when it may still become one: an attempt that holds it, or an
    // open attempt of a charge that has no capture yet. Once the charge is captured by another provider charge, this
    // one can never be the charge's payment: a duplicate, refundable here.
    const [ours] = await em.query<Array<{ id: string; status: string; charge_id: string; late: boolean }>>(
      `SELECT a.id, a.status, a.charge_id, a.late_capture_provider_charge_id IS NOT DISTINCT FROM $2 AS late FROM attempts a
        WHERE a.operation = 'charge' AND a.provider = $1
          AND ((${isCapture('a')} AND ${capturedProviderChargeId('a')} = $2)
               OR ((a.provider_ref = $2 OR (a.charge_id = $3 AND a.status IN ('pending', 'unknown')))
                   AND a.status <> 'failed'
                   AND NOT EXISTS (SELECT 1 FROM attempts c
                                    WHERE c.charge_id = a.charge_id AND c.operation = 'charge' AND c.id <> a.id AND ${isCapture('c')})))
        LIMIT 1`,
      [proposal.provider, proposal.providerChargeId, proposal.chargeId],
    );
    if (!ours) return null;
    if (ours.late && checked && charges.includes(ours.charge_id)) return ours.charge_id;
    throw new RefundProposalStaleError(proposal.id, ours.id, ours.status);
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
