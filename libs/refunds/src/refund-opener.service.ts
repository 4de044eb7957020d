import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  AttemptTransitionWriter,
  ChargeNotFoundError,
  PreviousAttemptRecheck,
  capturedProviderChargeId,
  insertClaimedAttempt,
  isCapture,
  mayOpenNewAttempt,
  needsRecheck,
  payloadHash,
} from '@app/attempts';
import { AppConfig } from '@app/config';
import { hasOpenReviewItem } from '@app/review/items';
import { ChargeAttemptEntity, ChargeEntity, RefundEntity, isUniqueViolation } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { ChargeNotRefundableError, PreviousRefundAttemptUnverifiedError, RefundExceedsRefundableError, RefundNotFoundError, RefundProposalExecutedError, ProviderChargeAlreadyRefundedError } from './refunds.errors.js';

/**
 * SQL, for the charge row `c`: what the provider refunded of it with no refund of ours holding that money, as
 * reconciliation found, open or acknowledged alike (a person's acknowledgement does not bring the money back):
 * its `refund_provider_only` divergences (a refund we did not make, or one we recorded as failed; one an attempt of
 * ours holds again, not failed, is in refund_committed_cents and counts once), and what a `refund_amount_mismatch`
 * refunded beyond our refund's own amount.
 */
const PROVIDER_ONLY_REFUNDED = `COALESCE((
  SELECT sum(CASE WHEN d.kind = 'refund_provider_only' THEN d.amount_cents
                  ELSE GREATEST(d.amount_cents - COALESCE((d.detail->>'expectedAmountCents')::bigint, d.amount_cents), 0) END)
    FROM reconciliation_divergences d
   WHERE d.charge_id = c.id
     AND (d.kind = 'refund_amount_mismatch'
          OR (d.kind = 'refund_provider_only'
              AND NOT EXISTS (SELECT 1 FROM charge_attempts x
                               WHERE x.operation = 'refund' AND x.status <> 'failed' AND (x.id = d.attempt_id OR x.provider_charge_id = d.provider_charge_id))))), 0)`;

export interface NewRefund {
  chargeId: string;
  /** The caller's merchant, in the SQL that finds the charge (null: a reviewer or admin, any merchant). */
  merchantId: string | null;
  amountCents: number;
  reason: string | null;
}

/** An approved refund proposal, as its executor read it under the proposal's row lock. */
export interface ProposalToExecute {
  id: string;
  provider: string;
  providerChargeId: string;
  amountCents: number;
  currency: string;
  reason: string;
}

/** What a refund attempt is sent against: the provider charge, and our charge when it is one of ours. */
interface RefundTarget {
  chargeId: string | null;
  provider: string;
  providerChargeId: string;
}

export type OpenedRefundAttempt =
  | { kind: 'open'; attempt: ChargeAttemptEntity; created: boolean }
  | { kind: 'settled' }
  | { kind: 'in_review' };

type NeedsRecheck = { kind: 'recheck'; attempt: ChargeAttemptEntity };

/**
 * Phase 1 of a refund, the same as a charge's: a short transaction under the charge row lock that commits the
 * refund's amount against what was captured (a conditional update, capped again by the charge's CHECK), and
 * the refund attempt with its idempotency key and exact payload, before any network call. The sender,
 * classifier, resolver, sweeper and review queue then treat it like any other attempt.
 */
@Injectable()
export class RefundOpener {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly transitions: AttemptTransitionWriter,
    private readonly recheck: PreviousAttemptRecheck,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates the refund and its first attempt, already claimed for its first send. `within`: a caller's transaction
   * (a reviewer refunding a late capture, with the item's close), which then owns the commit.
   */
  async create(input: NewRefund, actor: string, within?: EntityManager): Promise<{ refund: RefundEntity; attempt: ChargeAttemptEntity }> {
    const run = async (em: EntityManager) => {
      const charge = await this.lockCharge(em, input.chargeId, input.merchantId);
      const target = { chargeId: charge.id, provider: charge.provider, providerChargeId: await this.capturedProviderCharge(em, charge.id) };
      await this.commitAmount(em, charge, input.amountCents);
      const refund = Object.assign(new RefundEntity(), {
        id: randomUUID(),
        chargeId: charge.id,
        merchantId: charge.merchantId,
        amountCents: input.amountCents,
        currency: charge.currency,
        reason: input.reason,
        createdBy: actor,
        proposalId: null,
        providerChargeId: null,
        releasedAt: null,
      });
      await em.insert(RefundEntity, refund);
      const attempt = await this.insertAttempt(em, target, refund, actor);
      return { refund, attempt };
    };
    return within ? run(within) : this.db.transaction(run);
  }

  /**
   * In the caller's transaction (which holds the proposal row): the refund of a provider charge that is no
   * charge of ours, for the proposal's amount. It commits nothing against a charge; the unique proposal id
   * makes it the proposal's only refund, whoever else approves it.
   */
  async openForProposal(em: EntityManager, proposal: ProposalToExecute, actor: string): Promise<{ refund: RefundEntity; attempt: ChargeAttemptEntity }> {
    const refund = Object.assign(new RefundEntity(), {
      id: randomUUID(),
      chargeId: null,
      merchantId: null,
      amountCents: proposal.amountCents,
      currency: proposal.currency,
      reason: proposal.reason,
      createdBy: actor,
      proposalId: proposal.id,
      providerChargeId: proposal.providerChargeId,
      releasedAt: null,
    });
    try {
      await em.insert(RefundEntity, refund);
    } catch (error) {
      if (isUniqueViolation(error, 'uq_refunds_proposal')) throw new RefundProposalExecutedError(proposal.id);
      if (isUniqueViolation(error, 'uq_refunds_proposal_provider_charge')) throw new ProviderChargeAlreadyRefundedError(proposal.providerChargeId);
      throw error;
    }
    const attempt = await this.insertAttempt(em, { chargeId: null, provider: proposal.provider, providerChargeId: proposal.providerChargeId }, refund, actor);
    return { refund, attempt };
  }

  /**
   * A retry: the open attempt, or a new one once every earlier attempt failed. A refund failed as not found is
   * queried once more first (outside any transaction), as a charge is: a provider can refund later than any grace.
   */
  async reopen(refundId: string, actor: string, merchantId: string | null = null): Promise<OpenedRefundAttempt> {
    const opened = await this.reopenOnce(refundId, actor, merchantId);
    if (opened.kind !== 'recheck') return opened;
    const outcome = await this.recheck.run(opened.attempt);
    if (outcome === 'unverified') throw new PreviousRefundAttemptUnverifiedError(refundId, opened.attempt.id);
    const reopened = await this.reopenOnce(refundId, actor, merchantId);
    if (reopened.kind === 'recheck') throw new PreviousRefundAttemptUnverifiedError(refundId, reopened.attempt.id);
    return reopened;
  }

  private async reopenOnce(refundId: string, actor: string, merchantId: string | null): Promise<OpenedRefundAttempt | NeedsRecheck> {
    return this.db.transaction(async (em) => {
      // Scoped in the SQL: another merchant's refund is not found, exactly like a missing one.
      const found = await em.getRepository(RefundEntity).findOneBy({ id: refundId, ...(merchantId ? { merchantId } : {}) });
      if (!found) throw new RefundNotFoundError(refundId);
      // The owner's row first, as every writer of this refund's attempts takes it: its charge, or itself.
      const charge = found.chargeId ? await this.lockCharge(em, found.chargeId) : null;
      const refund = await em.getRepository(RefundEntity).findOneOrFail({ where: { id: refundId }, lock: charge ? undefined : { mode: 'pessimistic_write' } });
      const attempts = await em.getRepository(ChargeAttemptEntity).find({ where: { refundId, operation: 'refund' }, order: { createdAt: 'ASC' } });
      const open = attempts.find((a) => a.status === 'pending' || a.status === 'unknown');
      if (open) return { kind: 'open', attempt: open, created: false };
      if (await hasOpenReviewItem(em, 'refund', refundId)) return { kind: 'in_review' };
      if (!mayOpenNewAttempt(attempts.map((a) => a.status))) return { kind: 'settled' };
      const last = attempts.at(-1);
      const [{ now }] = await em.query<Array<{ now: Date }>>(`SELECT now()`);
      if (last && needsRecheck(last, { now, validMs: this.config.RECHECK_VALID_MS })) return { kind: 'recheck', attempt: last };
      const target = charge
        ? { chargeId: charge.id, provider: charge.provider, providerChargeId: await this.capturedProviderCharge(em, charge.id) }
        : await this.proposalTarget(em, refund);
      if (charge && refund.releasedAt) {
        // The failure gave the amount back; trying again takes it again, within what is still refundable.
        await this.commitAmount(em, charge, refund.amountCents);
        const [, affected] = await em.query<[unknown, number]>(`UPDATE refunds SET released_at = NULL, updated_at = now() WHERE id = $1 AND released_at IS NOT NULL`, [refundId]);
        if (affected !== 1) throw new Error(`refund ${refundId} changed under the charge lock`);
      }
      return { kind: 'open', attempt: await this.insertAttempt(em, target, refund, actor), created: true };
    });
  }

  private async proposalTarget(em: EntityManager, refund: RefundEntity): Promise<RefundTarget> {
    const [row] = await em.query<Array<{ provider: string }>>(`SELECT provider FROM refund_proposals WHERE id = $1`, [refund.proposalId]);
    if (!row || !refund.providerChargeId) throw new Error(`refund ${refund.id} has neither a charge nor a proposal`);
    return { chargeId: null, provider: row.provider, providerChargeId: refund.providerChargeId };
  }

  private async lockCharge(em: EntityManager, chargeId: string, merchantId: string | null = null): Promise<ChargeEntity> {
    const charge = await em.getRepository(ChargeEntity).findOne({ where: { id: chargeId, ...(merchantId ? { merchantId } : {}) }, lock: { mode: 'pessimistic_write' } });
    if (!charge) throw new ChargeNotFoundError(chargeId);
    return charge;
  }

  /**
   * The provider's id of the captured charge: only a charge with a success-bearing attempt can be refunded (a
   * succeeded attempt, or one we had failed that the provider captured late: the customer paid either way).
   */
  private async capturedProviderCharge(em: EntityManager, chargeId: string): Promise<string> {
    const [captured] = await em.query<Array<{ provider_charge_id: string | null }>>(
      `SELECT ${capturedProviderChargeId('a')} AS provider_charge_id
         FROM charge_attempts a
        WHERE a.charge_id = $1 AND a.operation = 'charge' AND ${isCapture('a')}`,
      [chargeId],
    );
    if (!captured?.provider_charge_id) throw new ChargeNotRefundableError(chargeId);
    return captured.provider_charge_id;
  }

  /**
   * Under the charge row lock: succeeds only while open and succeeded refunds, plus what the provider refunded
   * without us, stay within the captured amount. The CHECK on the charge row is the last word on our own refunds
   * should any other writer try.
   */
  private async commitAmount(em: EntityManager, charge: ChargeEntity, amountCents: number): Promise<void> {
    const [rows] = await em.query<[unknown[], number]>(
      `UPDATE charges c SET refund_committed_cents = refund_committed_cents + $2, updated_at = now()
        WHERE id = $1 AND refund_committed_cents + $2 + ${PROVIDER_ONLY_REFUNDED} <= amount_cents RETURNING id`,
      [charge.id, amountCents],
    );
    if (rows.length === 1) return;
    const [current] = await em.query<Array<{ refundable: string }>>(
      `SELECT GREATEST(amount_cents - refund_committed_cents - ${PROVIDER_ONLY_REFUNDED}, 0) AS refundable FROM charges c WHERE id = $1`,
      [charge.id],
    );
    throw new RefundExceedsRefundableError(charge.id, amountCents, Number(current.refundable));
  }

  /** A new key per attempt, never derived from the refund: a refused try must not be replayed forever. */
  private async insertAttempt(em: EntityManager, target: RefundTarget, refund: RefundEntity, actor: string): Promise<ChargeAttemptEntity> {
    const id = randomUUID();
    const payload = this.gateways.forAttempt(target.provider).port('refund').encodeRefund({
      attemptId: id,
      refundId: refund.id,
      chargeId: target.chargeId,
      providerChargeId: target.providerChargeId,
      amountCents: refund.amountCents,
      currency: refund.currency,
    });
    const attempt = Object.assign(new ChargeAttemptEntity(), {
      id,
      chargeId: target.chargeId,
      operation: 'refund',
      refundId: refund.id,
      idempotencyKey: randomUUID(),
      provider: target.provider,
      status: 'pending',
      payload,
      payloadHash: payloadHash(payload),
      httpAttempts: 0,
    });
    // Created already claimed for its first send: the claim commits with the key (under the charge lock).
    return insertClaimedAttempt(em, attempt, { openIndex: 'uq_charge_attempts_open_per_refund', owner: refund.id, leaseMs: this.config.SUBMIT_LEASE_MS, transitions: this.transitions, actor });
  }
}
