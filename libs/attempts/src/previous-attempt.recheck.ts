import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { AttemptEntity } from '@app/database';
import { GatewayRegistry, summariseLookup } from '@app/gateways';
import { loadAttemptTarget, lookupAtProvider } from './attempt.operations.js';
import { AttemptNotFoundError } from './attempts.errors.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';
import { ProviderFactApplier } from './provider-fact.applier.js';
import { lockChargeAndAttempt } from './charge-lock.query.js';
import { openReviewItem } from '@app/review/items';
import { markRechecked } from './store/attempt-facts.store.js';

/** Unanswered re-checks after which the charge goes to a person rather than answering 503 forever. */
const UNVERIFIED_RECHECKS_BEFORE_REVIEW = 3;

export type RecheckOutcome = 'clean' | 'found' | 'unverified';

/**
 * The last look before a new charge goes out: queries a failed-as-not-found attempt's reference once more.
 * The query is kept as evidence on the old attempt. A charge found there is a late truth (through the one
 * applier: review, no new attempt); only a clean miss marks the attempt rechecked, which lets the opener go on.
 */
@Injectable()
export class PreviousAttemptRecheck {
  private readonly logger = new Logger(PreviousAttemptRecheck.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
  ) {}

  async run(attempt: AttemptEntity): Promise<RecheckOutcome> {
    // A charge attempt's reference, or a refund attempt's: the same re-check for every operation.
    const target = await loadAttemptTarget(this.db.manager, attempt.id);
    if (!target) throw new AttemptNotFoundError(attempt.id);
    const lookup = await lookupAtProvider(this.gateways.forAttempt(attempt.provider), target);
    const summary = summariseLookup(lookup);
    this.logger.log({ attemptId: attempt.id, chargeId: target.chargeId, operation: target.operation, provider: attempt.provider, lookup: lookup.kind }, 'failed attempt queried again before a new attempt');
    const call = { attemptId: attempt.id, provider: attempt.provider, kind: 'recheck' as const, outcome: lookup.kind, httpStatus: lookup.kind === 'error' ? lookup.httpStatus : 200, durationMs: lookup.durationMs, detail: summary };
    return this.db.transaction(async (em) => {
      // Charge then attempt locked before the evidence row referencing the attempt (see lockChargeAndAttempt).
      await lockChargeAndAttempt(em, attempt.id);
      await this.calls.record(call, em);
      if (lookup.kind === 'error') return this.unverified(em, attempt.id, summary);
      const found = lookup.kind === 'found' ? lookup.charges : [];
      const distinct = new Set(found.map((c) => c.providerChargeId));
      if (distinct.size > 1) {
        await openReviewItem(em, attempt.id, 'duplicate_provider_charges', { recheck: summary });
        return 'found';
      }
      let contradicted = false;
      for (const c of found) {
        const fact = { outcome: c.outcome, providerChargeId: c.providerChargeId, amountCents: c.amountCents, currency: c.currency };
        const decision = await this.facts.apply(em, attempt.id, fact, { cause: 'submit', actor: 'recheck', evidence: { recheck: summary } });
        contradicted ||= decision.action !== 'none';
      }
      if (contradicted) return 'found';
      // A clean miss, or a charge the provider itself failed: nothing of this attempt can take money. A miss
      // from a lagging search is accepted too: the attempt was failed only after that search's whole window.
      await markRechecked(em, attempt.id);
      return 'clean';
    });
  }

  /** The provider could not answer. After a few such tries a person decides, so the charge is never stuck. */
  private async unverified(em: EntityManager, attemptId: string, summary: Record<string, unknown>): Promise<RecheckOutcome> {
    const [{ n }] = await em.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM provider_calls WHERE attempt_id = $1 AND kind = 'recheck' AND outcome = 'error'`,
      [attemptId],
    );
    if (n >= UNVERIFIED_RECHECKS_BEFORE_REVIEW) await openReviewItem(em, attemptId, 'recheck_unanswered', { recheck: summary, unansweredRechecks: n });
    return 'unverified';
  }
}
