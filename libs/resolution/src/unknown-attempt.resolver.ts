import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, countResolutionTry, loadAttemptTarget, lockChargeAndAttempt, lookupAtProvider, type AttemptTarget } from '@app/attempts';
import { AppConfig } from '@app/config';
import { msInterval } from '@app/database';
import { inSpan, resolutionDecisionsTotal } from '@app/observability';
import { GatewayRegistry, sendThroughGate, summariseLookup, type ProviderPorts, type LookupResult } from '@app/gateways';
import { AttemptJobs, ProviderQueryPacer } from '@app/queues';
import { openReviewItem } from '@app/review/items';
import { AwaitingPaymentHandler } from './awaiting-payment.handler.js';
import { absenceProvableAfterMs } from './rules/absence-proof.js';
import { decideResolution, type ResolutionDecision, type WaitReason } from './rules/resolution-decision.js';
import { delayAfterEarlyMiss, resolutionDelayMs } from './rules/resolution-schedule.js';

/** The attempt being resolved, as every step after the first read needs it. */
interface ResolvingAttempt {
  id: string;
  provider: string;
}

/** What one try learned, its times by the database's clock. */
interface TryFacts {
  tryNumber: number;
  lookup: LookupResult;
  lookupStartedAt: Date;
  msSinceSendEnded: number;
  provableAfterMs: number;
}

/**
 * Resolves one unknown attempt by asking the provider, never by sending the create again. One lookup
 * per job; waiting is a delayed job, and giving up is a review item for a person.
 */
@Injectable()
export class UnknownAttemptResolver {
  private readonly logger = new Logger(UnknownAttemptResolver.name);
  private readonly schedule: number[];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly transitions: AttemptTransitionWriter,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
    private readonly jobs: AttemptJobs,
    private readonly config: AppConfig,
    private readonly awaiting: AwaitingPaymentHandler,
    private readonly pacer: ProviderQueryPacer,
  ) {
    this.schedule = config.RESOLUTION_BACKOFF_MS;
  }

  /** In a span (attempt, provider, decision): the job's trace shows the lookup and what it decided. */
  resolve(attemptId: string): Promise<ResolutionDecision | null> {
    return inSpan('attempt.resolve', { 'charge_once.attempt_id': attemptId }, async (span) => {
      const decision = await this.resolveOnce(attemptId);
      span.setAttribute('charge_once.decision', decision?.action ?? 'nothing_to_do');
      return decision;
    });
  }

  private async resolveOnce(attemptId: string): Promise<ResolutionDecision | null> {
    // The window is measured from before the lookup left, by the database's clock, read with the attempt: a lookup
    // that took long (or waited for its slot) proves nothing about the time after this read.
    const [attempt] = await this.db.query<Array<ResolvingAttempt & { status: string; lookup_started_at: Date }>>(
      `SELECT id, provider, status, clock_timestamp() AS lookup_started_at FROM attempts WHERE id = $1`,
      [attemptId],
    );
    // A webhook, a second resolver or a person got there first: nothing left to do.
    if (!attempt || attempt.status !== 'unknown') return null;
    const lookupStartedAt = attempt.lookup_started_at;
    // What the attempt realises (a charge, or a refund of one): the money to expect and where to look.
    const target = await loadAttemptTarget(this.db.manager, attemptId);
    if (!target) return null;
    const gateway = this.gateways.forAttempt(attempt.provider);
    const lookup = await this.lookup(gateway, attempt, target);
    const counted = await countResolutionTry(this.db, attemptId, lookupStartedAt);
    if (counted === null) return null;
    const { tryNumber, msSinceSendEnded } = counted;
    // When a miss by this lookup's kind proves absence, from the last send's end: the decision, the re-check under
    // the lock and the next lookup's moment all read it (a failed lookup proves nothing, whatever it is).
    const consistent = lookup.kind !== 'error' && lookup.consistent;
    const provableAfterMs = absenceProvableAfterMs({ consistent, consistentGraceMs: this.config.CONSISTENT_LOOKUP_GRACE_MS, capabilities: gateway.capabilities });
    const decision = decideResolution({
      lookup,
      msSinceSendEnded,
      capabilities: gateway.capabilities,
      consistentGraceMs: this.config.CONSISTENT_LOOKUP_GRACE_MS,
      tryNumber,
      maxTries: this.config.RESOLUTION_MAX_TRIES,
      expected: target.expected,
    });
    resolutionDecisionsTotal.inc({ provider: attempt.provider, action: decision.action });
    this.logger.log({ attemptId, chargeId: target.chargeId, operation: target.operation, provider: attempt.provider, tryNumber, decision: decision.action }, 'resolution try');
    await this.act(attempt, decision, { tryNumber, lookup, lookupStartedAt, msSinceSendEnded, provableAfterMs });
    return decision;
  }

  private async lookup(gateway: ProviderPorts, attempt: ResolvingAttempt, target: AttemptTarget): Promise<LookupResult> {
    // Right before the query leaves, so its slot in the provider's budget is when the provider sees it; a query
    // held up past its slot was never written (the gate refused it): it asks for another slot, not another try.
    for (;;) {
      const slot = await this.pacer.take(attempt.provider, gateway.capabilities.queryRatePerSecond);
      const lookup = await sendThroughGate(slot, () => lookupAtProvider(gateway, target));
      if (slot.missed) continue;
      await this.calls.recordAnswer(attempt, 'lookup', lookup, summariseLookup(lookup));
      return lookup;
    }
  }

  private async act(attempt: ResolvingAttempt, decision: ResolutionDecision, tried: TryFacts): Promise<void> {
    const { tryNumber, lookup, lookupStartedAt, provableAfterMs } = tried;
    switch (decision.action) {
      case 'apply':
        await this.apply(attempt, decision.status, decision.providerChargeId, lookup);
        return;
      case 'fail_not_found':
        await this.failNotFound(attempt, tryNumber, lookupStartedAt, provableAfterMs);
        return;
      case 'wait':
        await this.jobs.scheduleResolution(attempt.id, attempt.provider, tryNumber, this.delayAfterWait(decision.reason, tried));
        return;
      case 'review':
        await this.db.transaction((em) => openReviewItem(em, attempt.id, decision.reason, { decision, lastLookup: summariseLookup(lookup) }));
        return;
      case 'await_payment': {
        const charge = lookup.kind === 'found' ? lookup.charges.find((c) => c.providerChargeId === decision.providerChargeId) : undefined;
        if (charge) await this.awaiting.handle(attempt, { ...charge, payableUntil: decision.payableUntil }, tryNumber);
        return;
      }
    }
  }

  /** A miss inside the window is asked again the moment a miss can prove absence, not at the backoff's next step. */
  private delayAfterWait(reason: WaitReason, { tryNumber, msSinceSendEnded, provableAfterMs }: TryFacts): number {
    if (reason !== 'not_found_inside_window') return resolutionDelayMs(this.schedule, tryNumber + 1);
    return delayAfterEarlyMiss(this.schedule, tryNumber + 1, provableAfterMs - msSinceSendEnded);
  }

  /**
   * Fails the attempt unless, under the charge-then-attempt locks, something moved since the lookup left: a webhook
   * named its provider charge (the charge exists: the next try retrieves it directly), or a send ended later than
   * the lookup's start allows (a late sender's lease or answer), so the window (the same rule the decision read) no
   * longer covers the lookup. A send
   * the provider answered 2xx (`created_not_final`: it created something we could not read, e.g. an Asaas refund
   * whose `refunds[]` did not show it) is never absent, whatever a lookup says: a person decides, since failing it
   * would free its amount for a second send the provider would execute again.
   */
  private async failNotFound(attempt: ResolvingAttempt, tryNumber: number, lookupStartedAt: Date, provableAfterMs: number): Promise<void> {
    const attemptId = attempt.id;
    const next = await this.db.transaction(async (em): Promise<'done' | 'ask_again' | 'created'> => {
      const locked = await lockChargeAndAttempt(em, attemptId);
      if (!locked || locked.status !== 'unknown') return 'done';
      if (locked.providerChargeId) return 'ask_again';
      const [{ covered, created }] = await em.query<Array<{ covered: boolean; created: boolean }>>(
        `SELECT $2::timestamptz >= COALESCE(last_send_ended_at, last_sent_at, created_at) + ${msInterval('$3')} AS covered,
                COALESCE(last_error->>'reason' = 'created_not_final', false) AS created
           FROM attempts WHERE id = $1`,
        [attemptId, lookupStartedAt, provableAfterMs],
      );
      if (!covered) return 'ask_again';
      if (created) return 'created';
      const detail = { reason: 'not_found_after_window', tryNumber };
      await this.transitions.apply({ attemptId, from: 'unknown', to: 'failed', cause: 'resolver', actor: 'resolver', detail }, em);
      return 'done';
    });
    if (next === 'ask_again') await this.jobs.scheduleResolution(attemptId, attempt.provider, tryNumber, resolutionDelayMs(this.schedule, tryNumber + 1));
    if (next === 'created') await this.db.transaction((em) => openReviewItem(em, attemptId, 'absence_unprovable', { reason: 'provider_answered_2xx_but_lookup_finds_nothing', tryNumber }));
  }

  /** One charge with a final status: through the one place where a provider fact meets our record. */
  private async apply(attempt: ResolvingAttempt, to: 'succeeded' | 'failed', providerChargeId: string, lookup: LookupResult): Promise<void> {
    const charge = lookup.kind === 'found' ? lookup.charges.find((c) => c.providerChargeId === providerChargeId) : undefined;
    await this.db.transaction((em) =>
      this.facts.apply(
        em,
        attempt.id,
        { outcome: to, providerChargeId, amountCents: charge?.amountCents ?? null, currency: charge?.currency ?? null },
        { cause: 'resolver', actor: 'resolver', evidence: { providerChargeId, lookup: summariseLookup(lookup) } },
      ),
    );
  }
}
