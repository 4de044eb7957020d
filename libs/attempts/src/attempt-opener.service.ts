import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity, ChargeEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { openClaimedChargeAttempt, readChargeForSubmit, type ChargeForSubmit } from './charge-hot-path.statements.js';
import { hasOpenReviewItem } from '@app/review/items';
import { ChargeNotFoundError, OpenAttemptExistsError, PreviousAttemptUnverifiedError } from './attempts.errors.js';
import { PreviousAttemptRecheck } from './previous-attempt.recheck.js';
import { payloadHash } from './rules/canonical-payload.js';
import { decideOpening } from './rules/opening-decision.js';

export type OpenedAttempt =
  | { kind: 'open'; attempt: ChargeAttemptEntity; created: boolean }
  /** The charge already succeeded: nothing to send, ever again. */
  | { kind: 'settled'; attempt: ChargeAttemptEntity }
  /** The provider captured an attempt we had failed: the customer paid, and no attempt opens again. */
  | { kind: 'captured'; attempt: ChargeAttemptEntity }
  /** A person is deciding whether money already moved: no new attempt until they have. */
  | { kind: 'in_review' };

/** The last attempt was failed as not found and must be queried once more before a new one may open. */
type NeedsRecheck = { kind: 'recheck'; attempt: ChargeAttemptEntity };

/** A first send opened on the hot path, with what was read to decide it (the charge view is built from both). */
export interface OpenedFirstSend extends ChargeForSubmit {
  attempt: ChargeAttemptEntity;
}

/**
 * Phase 1 of a submit: a short transaction that finds the charge's open attempt or creates one, with its
 * idempotency key and exact payload committed before any network call. The charge row lock serialises
 * openers so "the last attempt failed" cannot go stale between the check and the insert; the partial
 * unique index stays the last word should anything else insert.
 */
@Injectable()
export class AttemptOpener {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly recheck: PreviousAttemptRecheck,
    private readonly config: AppConfig,
  ) {}

  /**
   * A provider can create later than any grace and lose its webhook, so before a new attempt (a new charge at
   * the provider) follows one we failed as not found, that attempt's reference is queried once more, outside
   * any transaction. A charge found there goes to a person and no new attempt opens; a provider that cannot
   * answer leaves the charge as it is, to be submitted again later.
   */
  async openOrReuse(chargeId: string, actor: string, merchantId: string | null = null): Promise<OpenedAttempt> {
    // Each attempt failed as not found is queried once (a charge rarely has more than one or two of them).
    const rechecked = new Set<string>();
    for (;;) {
      const opened = await this.openOnce(chargeId, actor, merchantId);
      if (opened.kind !== 'recheck') return opened;
      // Asked already in this submit and still wanting a check: only a concurrent opener could cause it; submit again.
      if (rechecked.has(opened.attempt.id)) throw new PreviousAttemptUnverifiedError(chargeId, opened.attempt.id);
      rechecked.add(opened.attempt.id);
      const outcome = await this.recheck.run(opened.attempt);
      if (outcome === 'unverified') throw new PreviousAttemptUnverifiedError(chargeId, opened.attempt.id);
    }
  }

  /**
   * The common case in two round trips and one commit, no transaction held across them: read the charge and
   * its attempts without a lock, decide with the same rules as the locked path, and when they say "open a new
   * attempt", open it already claimed with a function that takes the charge lock and re-confirms what was read.
   * Null whenever the read or the lock says anything else (an open attempt, a review, a re-check, a race): the
   * caller then takes `openOrReuse`, the full locked path. Throws ChargeNotFoundError for an unknown charge.
   * Whatever `known` claims, the function confirms it under the lock before anything is written.
   */
  async openFirstSend(chargeId: string, actor: string, merchantId: string | null, known: ChargeForSubmit | null = null): Promise<OpenedFirstSend | null> {
    // `known`: what the caller already holds (a charge it just created, with no attempts), instead of a read.
    const read = known ?? (await readChargeForSubmit(this.db, chargeId, merchantId));
    if (!read) throw new ChargeNotFoundError(chargeId);
    if (decideOpening(read.attempts, read.inReview, { now: read.dbNow, validMs: this.config.RECHECK_VALID_MS }).kind !== 'create') return null;
    const attempt = this.newAttempt(read.charge);
    const opened = await openClaimedChargeAttempt(this.db, attempt, read.attempts.length, this.config.SUBMIT_LEASE_MS, actor);
    return opened ? { ...read, attempt } : null;
  }

  private async openOnce(chargeId: string, actor: string, merchantId: string | null): Promise<OpenedAttempt | NeedsRecheck> {
    try {
      return await this.db.transaction((em) => this.openIn(em, chargeId, actor, merchantId));
    } catch (error) {
      if (!(error instanceof OpenAttemptExistsError)) throw error;
      const open = await this.db.getRepository(ChargeAttemptEntity).findOneOrFail({
        where: { chargeId, operation: 'charge', status: In(['pending', 'unknown']) },
      });
      return { kind: 'open', attempt: open, created: false };
    }
  }

  private async openIn(em: EntityManager, chargeId: string, actor: string, merchantId: string | null): Promise<OpenedAttempt | NeedsRecheck> {
    // Scoped to the caller's merchant in the SQL itself: another merchant's charge is not found, exactly like a missing one.
    const charge = await em.getRepository(ChargeEntity).findOne({ where: { id: chargeId, ...(merchantId ? { merchantId } : {}) }, lock: { mode: 'pessimistic_write' } });
    if (!charge) throw new ChargeNotFoundError(chargeId);
    const attempts = await em.getRepository(ChargeAttemptEntity).find({ where: { chargeId, operation: 'charge' }, order: { createdAt: 'ASC' } });
    // The review check is only asked when no attempt is open, as before: an open attempt is reused regardless.
    const inReview = attempts.some((a) => a.status === 'pending' || a.status === 'unknown') ? false : await hasOpenReviewItem(em, 'charge', chargeId);
    const [{ now }] = await em.query<Array<{ now: Date }>>(`SELECT now()`);
    const decision = decideOpening(attempts, inReview, { now, validMs: this.config.RECHECK_VALID_MS });
    if (decision.kind === 'reuse') return { kind: 'open', attempt: decision.attempt, created: false };
    if (decision.kind !== 'create') return decision;
    const attempt = this.newAttempt(charge);
    // The same function as the hot path (one way to create a claimed attempt); under our lock it just inserts.
    // It declines only when an open attempt appeared (the partial unique index): reuse that one.
    if (!(await openClaimedChargeAttempt(em, attempt, attempts.length, this.config.SUBMIT_LEASE_MS, actor))) throw new OpenAttemptExistsError(chargeId);
    return { kind: 'open', attempt, created: true };
  }

  /** A new key per attempt, never derived from the charge: a declined try must not be replayed forever. */
  private newAttempt(charge: ChargeEntity): ChargeAttemptEntity {
    const id = randomUUID();
    const idempotencyKey = randomUUID();
    const payload = this.gateways.get(charge.provider).encodeCharge({
      attemptId: id,
      chargeId: charge.id,
      idempotencyKey,
      amountCents: charge.amountCents,
      currency: charge.currency,
      customerId: charge.customerId,
      paymentMethodId: charge.paymentMethodId,
      billingType: charge.billingType,
      dueDate: charge.dueDate,
    });
    return Object.assign(new ChargeAttemptEntity(), {
      id,
      chargeId: charge.id,
      idempotencyKey,
      provider: charge.provider,
      status: 'pending',
      payload,
      payloadHash: payloadHash(payload),
      httpAttempts: 0,
    });
  }
}
