import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AttemptOpener, PreviousAttemptUnverifiedError, ProviderFirstAttempt, decideOpening, openClaimedChargeAttempt, payloadHash, type AttemptOwner, type OpenedAttempt } from '@app/attempts';
import { AppConfig } from '@app/config';
import { AttemptEntity, ChargeEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { ChargeNotFoundError, InvalidChargeFieldError } from './charges.errors.js';
import { checkChargeAmount } from './charge-amount.check.js';
import { readChargeForSubmit, type ChargeForSubmit } from './charge-submit.statements.js';
import { chargeAttemptIdsOf } from './rules/survivable-ids.js';

/** A first send opened on the hot path, with what was read to decide it (the charge view is built from both). */
export interface OpenedFirstSend extends ChargeForSubmit {
  attempt: AttemptEntity;
}

/**
 * A charge's attempts open through the one opener; what is the charge's own is here: its row lock (scoped to the
 * caller's merchant in the SQL, so another merchant's charge is not found, exactly like a missing one), no money
 * to commit, and its request encoded under a new key.
 */
@Injectable()
export class ChargeAttemptOpener {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly opener: AttemptOpener,
    private readonly gateways: GatewayRegistry,
    private readonly config: AppConfig,
    private readonly firstAttempt: ProviderFirstAttempt,
  ) {}

  /** The full, locked path: reuse the open attempt or open a new one (re-checking a failed-as-not-found one first). */
  openOrReuse(chargeId: string, actor: string, merchantId: string | null = null): Promise<OpenedAttempt> {
    return this.opener.openAttempt(this.owner(chargeId, merchantId), actor);
  }

  /**
   * The common case in two round trips and one commit, no transaction held across them: read the charge and
   * its attempts without a lock, decide with the same rule as the locked path, and when it says "open a new
   * attempt", open it through the store's fast path, which takes the charge lock and re-confirms what was read.
   * Null whenever the read or the lock says anything else (an open attempt, a review, a re-check, a race): the
   * caller then takes `openOrReuse`. Throws ChargeNotFoundError for an unknown charge. `known`: what the caller
   * already holds (a charge it just created, with no attempts), instead of a read; the store confirms it all the same.
   */
  async openFirstSend(chargeId: string, actor: string, merchantId: string | null, known: ChargeForSubmit | null = null): Promise<OpenedFirstSend | null> {
    const read = known ?? (await readChargeForSubmit(this.db, chargeId, merchantId));
    if (!read) throw new ChargeNotFoundError(chargeId);
    if (decideOpening(read.attempts, read.inReview, { now: read.dbNow, validMs: this.config.RECHECK_VALID_MS }).kind !== 'create') return null;
    const attempt = this.encode(read.charge, read.attempts.length);
    // A set lookup after the provider's first attempt in this process; one insert that changes nothing at most once before.
    await this.firstAttempt.opening(attempt.provider);
    const opened = await openClaimedChargeAttempt(this.db, attempt, read.attempts.length, this.config.SUBMIT_LEASE_MS, actor);
    return opened ? { ...read, attempt } : null;
  }

  private owner(chargeId: string, merchantId: string | null): AttemptOwner<ChargeEntity> {
    return {
      operation: 'charge',
      id: chargeId,
      lock: async (em: EntityManager) => {
        const charge = await em.getRepository(ChargeEntity).findOne({ where: { id: chargeId, ...(merchantId ? { merchantId } : {}) }, lock: { mode: 'pessimistic_write' } });
        if (!charge) throw new ChargeNotFoundError(chargeId);
        return charge;
      },
      prepare: (_em, charge, sequence) => Promise.resolve(this.encode(charge, sequence)),
      unverified: (attemptId) => new PreviousAttemptUnverifiedError(chargeId, attemptId),
    };
  }

  /**
   * Attempt `sequence` of the charge (how many it had before, read under the charge lock or re-confirmed by the
   * fast path's lock): its own key, never an earlier attempt's, so a declined try is not replayed; and derived,
   * so an attempt opened again after its row was lost sends what the provider already saw (survivable-ids.ts).
   */
  private encode(charge: ChargeEntity, sequence: number): AttemptEntity {
    const { attemptId: id, idempotencyKey } = chargeAttemptIdsOf(charge.id, sequence);
    const gateway = this.gateways.get(charge.provider);
    // A charge stored before its provider's rules changed (a Stripe charge without a payment method) is refused
    // here as it would be at create, naming the field, before anything is stored or sent.
    const problem = gateway.chargeFieldProblem({ currency: charge.currency, billingType: charge.billingType, paymentMethodId: charge.paymentMethodId, customerIp: charge.customerIp });
    if (problem) throw new InvalidChargeFieldError(charge.provider, problem.field, problem.message);
    checkChargeAmount(gateway, charge.currency, charge.amountCents);
    const payload = gateway.encodeCharge({
      attemptId: id,
      chargeId: charge.id,
      idempotencyKey,
      amountCents: charge.amountCents,
      currency: charge.currency,
      customerId: charge.customerId,
      paymentMethodId: charge.paymentMethodId,
      customerIp: charge.customerIp,
      billingType: charge.billingType,
      dueDate: charge.dueDate,
    });
    return Object.assign(new AttemptEntity(), {
      id,
      chargeId: charge.id,
      operation: 'charge',
      idempotencyKey,
      provider: charge.provider,
      status: 'pending',
      payload,
      payloadHash: payloadHash(payload),
      httpAttempts: 0,
    });
  }
}
