import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { AttemptOpener, capturedProviderChargeId, isCapture, payloadHash, type AttemptOwner, type OpenedAttempt } from '@app/attempts';
import { ChargeNotFoundError, IdempotencyKeyReusedError } from '@app/charges';
import { AttemptEntity, ChargeEntity, RefundEntity, isUniqueViolation } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { commitRefundAmount } from './refund-amount.commitment.js';
import { insertRefund, markRefundHeldAgain } from './store/index.js';
import { proposalRefundIdOf, refundAttemptIdsOf, refundIdOf } from './rules/survivable-refund-ids.js';
import { ChargeNotRefundableError, PreviousRefundAttemptUnverifiedError, RefundNotFoundError, RefundProposalExecutedError, ProviderChargeAlreadyRefundedError } from './refunds.errors.js';

export interface NewRefund {
  chargeId: string;
  /** The caller's merchant, in the SQL that finds the charge (null: a reviewer or admin, any merchant). */
  merchantId: string | null;
  amountCents: number;
  reason: string | null;
  /** Derived by the caller from what outlives a lost commit (a proposal's id); absent, a new random id. */
  refundId?: string;
}

/** The caller's Idempotency-Key and its scope (who asked, on which route): the refund's id is derived from them. */
export interface RefundIdempotency {
  scope: string;
  key: string;
}

/** A new refund with its first attempt claimed for its first send, or the refund an earlier request made. */
export type RefundOpening =
  | { kind: 'created'; refund: RefundEntity; attempt: AttemptEntity }
  /** `open`: its attempt still pending or unknown, if any (nothing new was committed or opened). */
  | { kind: 'existing'; refund: RefundEntity; open: AttemptEntity | null };

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

/** What the refund's owner policy locked: its charge (null for a proposal's refund) and the refund row. */
interface LockedRefund {
  charge: ChargeEntity | null;
  refund: RefundEntity;
}

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
    private readonly opener: AttemptOpener,
  ) {}

  /**
   * A caller's refund under its Idempotency-Key: the same key is the same refund (survivable-refund-ids.ts), so a
   * request run again after its process died, or after a failover lost the refund, its attempts and the key's
   * record, finds that refund or re-creates it under the lost one's id, attempt ids and keys, never a second one.
   * Found with the same amount and reason, nothing is committed again; with another, the key was reused (422) and
   * nothing changes. Without a key, a new refund as `create`.
   */
  async open(input: NewRefund, actor: string, idempotency: RefundIdempotency | null): Promise<RefundOpening> {
    if (!idempotency) return { kind: 'created', ...(await this.create(input, actor)) };
    const keyed = { ...input, refundId: refundIdOf(idempotency.scope, input.chargeId, idempotency.key) };
    const run = () => this.db.transaction((em) => this.openIn(em, keyed, actor));
    try {
      return await run();
    } catch (error) {
      // A twin request with this key inserted it first; under the charge lock again, it is found and compared.
      if (!isUniqueViolation(error, 'refunds_pkey')) throw error;
      return run();
    }
  }

  private async openIn(em: EntityManager, input: NewRefund & { refundId: string }, actor: string): Promise<RefundOpening> {
    const charge = await this.lockCharge(em, input.chargeId, input.merchantId);
    // Read under the charge lock, which every creator of this charge's refunds holds: a twin has committed or not.
    const existing = await em.getRepository(RefundEntity).findOneBy({ id: input.refundId });
    if (!existing) return { kind: 'created', ...(await this.createLocked(em, charge, input, actor)) };
    if (existing.amountCents !== input.amountCents || existing.reason !== input.reason) throw new IdempotencyKeyReusedError();
    const open = await em.getRepository(AttemptEntity).findOneBy({ refundId: existing.id, operation: 'refund', status: In(['pending', 'unknown']) });
    return { kind: 'existing', refund: existing, open };
  }

  /**
   * Creates the refund and its first attempt, already claimed for its first send. `within`: a caller's transaction
   * (a reviewer refunding a late capture, with the item's close), which then owns the commit.
   */
  async create(input: NewRefund, actor: string, within?: EntityManager): Promise<{ refund: RefundEntity; attempt: AttemptEntity }> {
    const run = async (em: EntityManager) => this.createLocked(em, await this.lockCharge(em, input.chargeId, input.merchantId), input, actor);
    return within ? run(within) : this.db.transaction(run);
  }

  private async createLocked(em: EntityManager, charge: ChargeEntity, input: NewRefund, actor: string): Promise<{ refund: RefundEntity; attempt: AttemptEntity }> {
    const target = { chargeId: charge.id, provider: charge.provider, providerChargeId: await this.capturedProviderCharge(em, charge.id) };
    await commitRefundAmount(em, charge, input.amountCents);
    const refund = Object.assign(new RefundEntity(), {
      id: input.refundId ?? randomUUID(),
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
    await insertRefund(em, refund);
    const attempt = await this.opener.openFirstAttempt(em, this.encode(target, refund, 0), actor);
    return { refund, attempt };
  }

  /**
   * In the caller's transaction (which holds the proposal row): the refund of a provider charge that is no
   * charge of ours, for the proposal's amount. It commits nothing against a charge; the unique proposal id
   * makes it the proposal's only refund, whoever else approves it.
   */
  async openForProposal(em: EntityManager, proposal: ProposalToExecute, actor: string): Promise<{ refund: RefundEntity; attempt: AttemptEntity }> {
    const refund = Object.assign(new RefundEntity(), {
      // Derived: a proposal executed again after a lost commit re-creates the lost refund and its attempts' keys.
      id: proposalRefundIdOf(proposal.id),
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
      await insertRefund(em, refund);
    } catch (error) {
      // The id is derived from the proposal, so a second execution meets the primary key as well as the proposal's key.
      if (isUniqueViolation(error, 'uq_refunds_proposal') || isUniqueViolation(error, 'refunds_pkey')) throw new RefundProposalExecutedError(proposal.id);
      if (isUniqueViolation(error, 'uq_refunds_proposal_provider_charge')) throw new ProviderChargeAlreadyRefundedError(proposal.providerChargeId);
      throw error;
    }
    const target = { chargeId: null, provider: proposal.provider, providerChargeId: proposal.providerChargeId };
    const attempt = await this.opener.openFirstAttempt(em, this.encode(target, refund, 0), actor);
    return { refund, attempt };
  }

  /**
   * A retry: the open attempt, or a new one once every earlier attempt failed, by the one opener and its rule. A
   * refund failed as not found is queried once more first (outside any transaction), as a charge is: a provider
   * can refund later than any grace.
   */
  reopen(refundId: string, actor: string, merchantId: string | null = null): Promise<OpenedAttempt> {
    return this.opener.openAttempt(this.owner(refundId, merchantId), actor);
  }

  private owner(refundId: string, merchantId: string | null): AttemptOwner<LockedRefund> {
    return {
      operation: 'refund',
      id: refundId,
      lock: async (em) => {
        // Scoped in the SQL: another merchant's refund is not found, exactly like a missing one.
        const found = await em.getRepository(RefundEntity).findOneBy({ id: refundId, ...(merchantId ? { merchantId } : {}) });
        if (!found) throw new RefundNotFoundError(refundId);
        // The owner's row first, as every writer of this refund's attempts takes it: its charge, or itself.
        const charge = found.chargeId ? await this.lockCharge(em, found.chargeId) : null;
        const refund = await em.getRepository(RefundEntity).findOneOrFail({ where: { id: refundId }, lock: charge ? undefined : { mode: 'pessimistic_write' } });
        return { charge, refund };
      },
      prepare: async (em, { charge, refund }, sequence) => {
        const target = charge
          ? { chargeId: charge.id, provider: charge.provider, providerChargeId: await this.capturedProviderCharge(em, charge.id) }
          : await this.proposalTarget(em, refund);
        if (charge && refund.releasedAt) {
          // The failure gave the amount back; trying again takes it again, within what is still refundable.
          await commitRefundAmount(em, charge, refund.amountCents);
          await markRefundHeldAgain(em, refundId);
        }
        return this.encode(target, refund, sequence);
      },
      unverified: (attemptId) => new PreviousRefundAttemptUnverifiedError(refundId, attemptId),
    };
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
         FROM attempts a
        WHERE a.charge_id = $1 AND a.operation = 'charge' AND ${isCapture('a')}`,
      [chargeId],
    );
    if (!captured?.provider_charge_id) throw new ChargeNotRefundableError(chargeId);
    return captured.provider_charge_id;
  }

  /**
   * Attempt `sequence` of the refund (how many it had before, counted under its owner's lock): its own key, never an
   * earlier attempt's, so a refused try is not replayed; and derived, so an attempt opened again after its row was
   * lost sends what the provider already saw (survivable-refund-ids.ts).
   */
  private encode(target: RefundTarget, refund: RefundEntity, sequence: number): AttemptEntity {
    const { attemptId: id, idempotencyKey } = refundAttemptIdsOf(refund.id, sequence);
    const payload = this.gateways.forAttempt(target.provider).port('refund').encodeRefund({
      attemptId: id,
      refundId: refund.id,
      chargeId: target.chargeId,
      providerChargeId: target.providerChargeId,
      amountCents: refund.amountCents,
      currency: refund.currency,
    });
    return Object.assign(new AttemptEntity(), {
      id,
      chargeId: target.chargeId,
      operation: 'refund',
      refundId: refund.id,
      idempotencyKey,
      provider: target.provider,
      status: 'pending',
      payload,
      payloadHash: payloadHash(payload),
      httpAttempts: 0,
    });
  }
}
