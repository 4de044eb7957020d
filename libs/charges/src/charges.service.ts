import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptSender, ChargeAlreadyCapturedError } from '@app/attempts';
import { AttemptEntity, ChargeEntity, isUniqueViolation } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { inSpan, type Span } from '@app/observability';
import { hasOpenReviewItem, openReviewItemsOfCharge } from '@app/review/items';
import { merchantScope, type Actor } from '@app/auth';
import { ChargeAttemptOpener } from './charge-attempt.opener.js';
import { checkChargeAmount } from './charge-amount.check.js';
import { insertCharge } from './store/index.js';
import { ChargeExistsError, ChargeNotFoundError, InvalidChargeFieldError, MerchantRequiredError } from './charges.errors.js';
import { toChargeView, type ChargeRefundsReader, type ChargeView } from './charge.view.js';
import { CreatedChargesCache } from './created-charges.cache.js';
import { chargeIdOf } from './rules/survivable-ids.js';

export interface NewCharge {
  orderId: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId?: string;
  customerIp?: string;
  provider?: string;
  billingType?: string;
  dueDate?: string;
}

@Injectable()
export class ChargesService {
  private readonly created = new CreatedChargesCache();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly opener: ChargeAttemptOpener,
    private readonly sender: AttemptSender,
  ) {}

  /**
   * Records what the business wants; nothing is sent until submit. One charge per merchant and order id; a charge
   * belongs to the caller's merchant, so only a merchant token creates one.
   */
  async create(input: NewCharge, caller: Actor): Promise<ChargeView> {
    if (!caller.merchantId) throw new MerchantRequiredError('creating a charge');
    const merchantId = caller.merchantId;
    const gateway = this.gateways.get(input.provider ?? this.gateways.defaultProvider);
    const provider = gateway.provider;
    // What this provider cannot take is refused now, naming the field, before anything is stored.
    const problem = gateway.chargeFieldProblem({ currency: input.currency, billingType: input.billingType ?? null, paymentMethodId: input.paymentMethodId ?? null, customerIp: input.customerIp ?? null });
    if (problem) throw new InvalidChargeFieldError(provider, problem.field, problem.message);
    checkChargeAmount(gateway, input.currency, input.amountCents);
    const charge = Object.assign(new ChargeEntity(), {
      // Derived, so a charge created again after a lost commit is the same charge (rules/survivable-ids.ts).
      id: chargeIdOf(merchantId, input.orderId),
      orderId: input.orderId,
      amountCents: input.amountCents,
      currency: input.currency,
      customerId: input.customerId,
      paymentMethodId: input.paymentMethodId ?? null,
      customerIp: input.customerIp ?? null,
      provider,
      billingType: input.billingType ?? null,
      dueDate: input.dueDate ?? null,
      createdBy: caller.name,
      merchantId,
    });
    try {
      // One prepared statement, one commit: the hot path's first write.
      await insertCharge(this.db, charge);
    } catch (error) {
      // The id is derived from (merchant, order), so a second create meets the primary key or the pair's key.
      if (!isUniqueViolation(error, 'UQ_charges_merchant_order_id') && !isUniqueViolation(error, 'charges_pkey')) throw error;
      // The unique key is (merchant, order): the existing charge is this merchant's own.
      const existing = await this.db.getRepository(ChargeEntity).findOneByOrFail({ merchantId, orderId: input.orderId });
      throw new ChargeExistsError(input.orderId, existing.id);
    }
    this.created.remember(charge);
    // A charge that was just created has no attempts and nothing to review.
    return toChargeView(charge, [], false);
  }

  /**
   * Opens or reuses the charge's attempt and makes at most one provider call. Safe to call any number of
   * times, concurrently: the database decides who sends, everyone else just reads the result.
   */
  submit(chargeId: string, caller: Actor, refundsOf: ChargeRefundsReader): Promise<ChargeView> {
    return inSpan('charge.submit', { 'charge_once.charge_id': chargeId }, (span) => this.submitInSpan(chargeId, caller, refundsOf, span));
  }

  private async submitInSpan(chargeId: string, caller: Actor, refundsOf: ChargeRefundsReader, span: Span): Promise<ChargeView> {
    const scope = merchantScope(caller);
    const actor = caller.name;
    // The common first submit: open claimed, send, settle, and show what was written (three round trips).
    const justCreated = this.created.take(chargeId, scope);
    // A charge just created has no attempts: nothing to re-check, so the clock does not matter.
    const known = justCreated ? { charge: justCreated, attempts: [], inReview: false, dbNow: new Date() } : null;
    const first = await this.opener.openFirstSend(chargeId, actor, scope, known);
    if (first) {
      span.setAttributes(attemptAttributes(first.attempt));
      // A charge this process created moments ago has no lost attempt whose key the provider could have pruned.
      const settled = await this.sender.sendClaimed(first.attempt, actor, justCreated ? first.dbNow : first.charge.createdAt);
      if (!settled) return this.view(chargeId, scope, refundsOf);
      const attempt = Object.assign(first.attempt, { ...settled, resolvedBy: settled.resolvedAt ? 'submit' : null });
      // Nothing opened a review item on this path, and a charge with no success yet has no refunds.
      return toChargeView(first.charge, [...first.attempts, attempt], false);
    }
    const opened = await this.opener.openOrReuse(chargeId, actor, scope);
    // The customer paid through an attempt we had failed: clicking again must never charge again.
    if (opened.kind === 'captured') throw new ChargeAlreadyCapturedError(chargeId, opened.attempt.id);
    if ('attempt' in opened) span.setAttributes(attemptAttributes(opened.attempt));
    if (opened.kind === 'open' && opened.created) await this.sender.sendClaimed(opened.attempt, actor);
    else if (opened.kind === 'open' && opened.attempt.status === 'pending') await this.sender.send(opened.attempt.id, actor);
    return this.view(chargeId, scope, refundsOf);
  }

  /**
   * `merchantId`: the caller's merchant, in the SQL (null: a reviewer or admin, who sees every merchant).
   * `refundsOf`: the refunds' reader, read in the same snapshot (the api composes the two libraries).
   */
  async view(chargeId: string, merchantId: string | null, refundsOf: ChargeRefundsReader): Promise<ChargeView> {
    // One snapshot: a transition committing between two reads must not show an attempt beside items or refunds
    // of another moment (a polling client acts on what it reads).
    return this.db.transaction('REPEATABLE READ', async (em) => {
      const charge = await em.getRepository(ChargeEntity).findOneBy({ id: chargeId, ...(merchantId ? { merchantId } : {}) });
      if (!charge) throw new ChargeNotFoundError(chargeId);
      const attempts = await em.getRepository(AttemptEntity).find({ where: { chargeId, operation: 'charge' }, order: { createdAt: 'ASC' } });
      const reviewItems = await openReviewItemsOfCharge(em, chargeId);
      // The charge is in review while any of its own attempts has an item; a refund's item shows in the list.
      const chargeInReview = await hasOpenReviewItem(em, 'charge', chargeId);
      return toChargeView(charge, attempts, chargeInReview, reviewItems, await refundsOf(em, chargeId));
    });
  }
}

function attemptAttributes(attempt: AttemptEntity): Record<string, string> {
  return { 'charge_once.attempt_id': attempt.id, 'charge_once.provider': attempt.provider };
}
