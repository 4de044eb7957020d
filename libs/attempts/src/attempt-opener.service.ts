import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity, ChargeEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { insertAttempt } from './attempt-insert.js';
import { chargeHasOpenReviewItem } from './charge-review.query.js';
import { ChargeNotFoundError, OpenAttemptExistsError, PreviousAttemptUnverifiedError } from './attempts.errors.js';
import { PreviousAttemptRecheck } from './previous-attempt.recheck.js';
import { isOpen } from './rules/attempt-status.js';
import { mayOpenNewAttempt } from './rules/attempt-state-machine.js';
import { payloadHash } from './rules/canonical-payload.js';
import { failedOnOurJudgement } from './rules/provider-fact.js';

export type OpenedAttempt =
  | { kind: 'open'; attempt: ChargeAttemptEntity; created: boolean }
  /** The charge already succeeded: nothing to send, ever again. */
  | { kind: 'settled'; attempt: ChargeAttemptEntity }
  /** A person is deciding whether money already moved: no new attempt until they have. */
  | { kind: 'in_review' };

/** The last attempt was failed as not found and must be queried once more before a new one may open. */
type NeedsRecheck = { kind: 'recheck'; attempt: ChargeAttemptEntity };

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
    private readonly transitions: AttemptTransitionWriter,
    private readonly recheck: PreviousAttemptRecheck,
    private readonly config: AppConfig,
  ) {}

  /**
   * A provider can create later than any grace and lose its webhook, so before a new attempt (a new charge at
   * the provider) follows one we failed as not found, that attempt's reference is queried once more, outside
   * any transaction. A charge found there goes to a person and no new attempt opens; a provider that cannot
   * answer leaves the charge as it is, to be submitted again later.
   */
  async openOrReuse(chargeId: string, actor: string): Promise<OpenedAttempt> {
    const opened = await this.openOnce(chargeId, actor);
    if (opened.kind !== 'recheck') return opened;
    const outcome = await this.recheck.run(opened.attempt);
    if (outcome === 'unverified') throw new PreviousAttemptUnverifiedError(chargeId, opened.attempt.id);
    const reopened = await this.openOnce(chargeId, actor);
    // Only a concurrent opener could have failed yet another attempt in between; the caller may submit again.
    if (reopened.kind === 'recheck') throw new PreviousAttemptUnverifiedError(chargeId, reopened.attempt.id);
    return reopened;
  }

  private async openOnce(chargeId: string, actor: string): Promise<OpenedAttempt | NeedsRecheck> {
    try {
      return await this.db.transaction((em) => this.openIn(em, chargeId, actor));
    } catch (error) {
      if (!(error instanceof OpenAttemptExistsError)) throw error;
      const open = await this.db.getRepository(ChargeAttemptEntity).findOneOrFail({
        where: { chargeId, operation: 'charge', status: In(['pending', 'unknown']) },
      });
      return { kind: 'open', attempt: open, created: false };
    }
  }

  private async openIn(em: EntityManager, chargeId: string, actor: string): Promise<OpenedAttempt | NeedsRecheck> {
    const charge = await em.getRepository(ChargeEntity).findOne({ where: { id: chargeId }, lock: { mode: 'pessimistic_write' } });
    if (!charge) throw new ChargeNotFoundError(chargeId);
    const attempts = await em.getRepository(ChargeAttemptEntity).find({ where: { chargeId, operation: 'charge' }, order: { createdAt: 'ASC' } });
    const open = attempts.find((a) => isOpen(a.status));
    if (open) return { kind: 'open', attempt: open, created: false };
    if (await chargeHasOpenReviewItem(em, chargeId)) return { kind: 'in_review' };
    const succeeded = attempts.find((a) => a.status === 'succeeded');
    if (succeeded || !mayOpenNewAttempt(attempts.map((a) => a.status))) {
      return { kind: 'settled', attempt: succeeded ?? attempts[attempts.length - 1] };
    }
    const last = attempts.at(-1);
    if (last && failedOnOurJudgement(last) && !last.recheckedAt) return { kind: 'recheck', attempt: last };
    const attempt = this.newAttempt(charge);
    await insertAttempt(em, attempt);
    // Created already claimed for its first send: the claim commits with the key, saving a round trip.
    await em.query(
      `UPDATE charge_attempts SET http_attempts = 1, last_sent_at = now(),
              lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
        WHERE id = $1`,
      [attempt.id, this.config.SUBMIT_LEASE_MS],
    );
    await this.transitions.recordCreation(em, attempt.id, actor);
    attempt.httpAttempts = 1;
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
