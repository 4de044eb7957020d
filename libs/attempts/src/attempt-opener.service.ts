import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { AppConfig } from '@app/config';
import { AttemptEntity } from '@app/database';
import type { AttemptOperation } from './attempt.operations.js';
import { OpenAttemptExistsError } from './attempts.errors.js';
import { PreviousAttemptRecheck } from './previous-attempt.recheck.js';
import { ProviderFirstAttempt } from './provider-first-attempt.recorder.js';
import { hasOpenReviewItem } from '@app/review/items';
import { decideOpening } from './rules/opening-decision.js';
import { insertClaimedAttempt, openClaimedChargeAttempt } from './store/attempt-creation.store.js';

export type OpenedAttempt =
  | { kind: 'open'; attempt: AttemptEntity; created: boolean }
  /** The owner already succeeded: nothing to send, ever again. */
  | { kind: 'settled'; attempt: AttemptEntity }
  /** The provider captured an attempt we had failed: the customer paid, and no attempt opens again. */
  | { kind: 'captured'; attempt: AttemptEntity }
  /** A person is deciding whether money already moved: no new attempt until they have. */
  | { kind: 'in_review' };

/** The last attempt was failed as not found and must be queried once more before a new one may open. */
type NeedsRecheck = { kind: 'recheck'; attempt: AttemptEntity };

/**
 * What is an operation's own when one of its attempts opens (a charge, a refund, a payout); everything else is the
 * one rule (`decideOpening`) and the one store. `L` is what the lock read and the preparation needs.
 */
export interface AttemptOwner<L> {
  operation: AttemptOperation;
  /** The charge, refund or payout id. */
  id: string;
  /** Takes the owner's row lock, in the order every writer of its attempts takes it; throws the owner's not-found. */
  lock(em: EntityManager): Promise<L>;
  /**
   * Under that lock, once a new attempt may open: commits or reserves its money and encodes its request.
   * `sequence`: how many attempts the owner had before this one (0 for its first).
   */
  prepare(em: EntityManager, locked: L, sequence: number): Promise<AttemptEntity>;
  /** What to throw when the provider could not confirm that a failed-as-not-found attempt created nothing. */
  unverified(attemptId: string): Error;
}

const OWNER_COLUMN = { charge: 'chargeId', refund: 'refundId', payout: 'payoutId' } as const;
const OPEN_INDEX = { charge: 'uq_attempts_open_per_charge', refund: 'uq_attempts_open_per_refund', payout: 'uq_attempts_open_per_payout' } as const;

/**
 * Phase 1 of every send: a short transaction that finds the owner's open attempt or creates one, with its
 * idempotency key and exact payload committed before any network call. The owner's row lock serialises openers so
 * "the last attempt failed" cannot go stale between the check and the insert; the partial unique index stays the
 * last word should anything else insert.
 */
@Injectable()
export class AttemptOpener {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly recheck: PreviousAttemptRecheck,
    private readonly config: AppConfig,
    private readonly firstAttempt: ProviderFirstAttempt,
  ) {}

  /**
   * A provider can create later than any grace and lose its webhook, so before a new attempt follows one we failed
   * as not found, that attempt's reference is queried once more, outside any transaction. Something found there
   * goes to a person and no new attempt opens; a provider that cannot answer leaves the owner as it is, to be
   * submitted again later.
   */
  async openAttempt<L>(owner: AttemptOwner<L>, actor: string): Promise<OpenedAttempt> {
    // Each attempt failed as not found is queried once (an owner rarely has more than one or two of them).
    const rechecked = new Set<string>();
    for (;;) {
      const opened = await this.openOnce(owner, actor);
      if (opened.kind !== 'recheck') return opened;
      // Asked already in this submit and still wanting a check: only a concurrent opener could cause it; submit again.
      if (rechecked.has(opened.attempt.id)) throw owner.unverified(opened.attempt.id);
      rechecked.add(opened.attempt.id);
      const outcome = await this.recheck.run(opened.attempt);
      if (outcome === 'unverified') throw owner.unverified(opened.attempt.id);
    }
  }

  /**
   * The first attempt of an owner created in the caller's transaction, which already locked what it must and
   * committed or reserved the money: with no attempts and nothing in review the rule can only say "create".
   */
  async openFirstAttempt(em: EntityManager, attempt: AttemptEntity, actor: string): Promise<AttemptEntity> {
    await this.firstAttempt.openingIn(em, attempt.provider);
    await this.create(em, attempt, 0, actor);
    return attempt;
  }

  private async openOnce<L>(owner: AttemptOwner<L>, actor: string): Promise<OpenedAttempt | NeedsRecheck> {
    try {
      return await this.db.transaction((em) => this.openIn(em, owner, actor));
    } catch (error) {
      if (!(error instanceof OpenAttemptExistsError)) throw error;
      const open = await this.db.getRepository(AttemptEntity).findOneOrFail({
        where: { [OWNER_COLUMN[owner.operation]]: owner.id, operation: owner.operation, status: In(['pending', 'unknown']) },
      });
      return { kind: 'open', attempt: open, created: false };
    }
  }

  private async openIn<L>(em: EntityManager, owner: AttemptOwner<L>, actor: string): Promise<OpenedAttempt | NeedsRecheck> {
    const locked = await owner.lock(em);
    const attempts = await em.getRepository(AttemptEntity).find({ where: { [OWNER_COLUMN[owner.operation]]: owner.id, operation: owner.operation }, order: { createdAt: 'ASC' } });
    // The review check is only asked when no attempt is open: an open attempt is reused regardless.
    const inReview = attempts.some((a) => a.status === 'pending' || a.status === 'unknown') ? false : await hasOpenReviewItem(em, owner.operation, owner.id);
    const [{ now }] = await em.query<Array<{ now: Date }>>(`SELECT now()`);
    const decision = decideOpening(attempts, inReview, { now, validMs: this.config.RECHECK_VALID_MS });
    if (decision.kind === 'reuse') return { kind: 'open', attempt: decision.attempt, created: false };
    if (decision.kind !== 'create') return decision;
    const attempt = await owner.prepare(em, locked, attempts.length);
    await this.firstAttempt.openingIn(em, attempt.provider);
    await this.create(em, attempt, attempts.length, actor);
    return { kind: 'open', attempt, created: true };
  }

  /** Through the one store: a charge's by the same function as the hot path (under our lock it just inserts). */
  private async create(em: EntityManager, attempt: AttemptEntity, knownAttempts: number, actor: string): Promise<void> {
    const leaseMs = this.config.SUBMIT_LEASE_MS;
    if (attempt.operation !== 'charge') {
      await insertClaimedAttempt(em, attempt, { openIndex: OPEN_INDEX[attempt.operation], leaseMs, actor });
      return;
    }
    // It declines only when an open attempt appeared (the partial unique index): the caller reuses that one.
    if (!(await openClaimedChargeAttempt(em, attempt, knownAttempts, leaseMs, actor))) throw new OpenAttemptExistsError(attempt.chargeId ?? attempt.id);
  }
}
