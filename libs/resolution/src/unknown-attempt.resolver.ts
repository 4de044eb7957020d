import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionWriter, ProviderCallRecorder, ProviderFactApplier, countResolutionTry, loadAttemptTarget, lockChargeAndAttempt, lookupAtProvider, type AttemptTarget } from '@app/attempts';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity, msInterval } from '@app/database';
import { inSpan, resolutionDecisionsTotal } from '@app/observability';
import { GatewayRegistry, summariseLookup, type ProviderPorts, type LookupResult } from '@app/gateways';
import { AttemptJobs } from '@app/queues';
import { openReviewItem } from '@app/review/items';
import { AwaitingPaymentHandler } from './awaiting-payment.handler.js';
import { decideResolution, type ResolutionDecision } from './rules/resolution-decision.js';
import { resolutionDelayMs } from './rules/resolution-schedule.js';

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
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneBy({ id: attemptId });
    // A webhook, a second resolver or a person got there first: nothing left to do.
    if (!attempt || attempt.status !== 'unknown') return null;
    // What the attempt realises (a charge, or a refund of one): the money to expect and where to look.
    const target = await loadAttemptTarget(this.db.manager, attemptId);
    if (!target) return null;
    const gateway = this.gateways.forAttempt(attempt.provider);

    // The window is measured from when the lookup left, by the database's clock: a lookup that took long proves
    // nothing about the time after it started.
    const [{ at: lookupStartedAt }] = await this.db.query<Array<{ at: Date }>>(`SELECT clock_timestamp() AS at`);
    const lookup = await this.lookup(gateway, attempt, target);
    const counted = await countResolutionTry(this.db, attemptId, lookupStartedAt);
    if (counted === null) return null;
    const { tryNumber, msSinceSendEnded } = counted;
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
    await this.act(attempt, decision, tryNumber, lookup, lookupStartedAt);
    return decision;
  }

  private async lookup(gateway: ProviderPorts, attempt: ChargeAttemptEntity, target: AttemptTarget): Promise<LookupResult> {
    const lookup = await lookupAtProvider(gateway, target);
    await this.calls.record({
      attemptId: attempt.id,
      provider: attempt.provider,
      kind: 'lookup',
      outcome: lookup.kind,
      httpStatus: lookup.kind === 'error' ? lookup.httpStatus : 200,
      durationMs: lookup.durationMs,
      detail: summariseLookup(lookup),
    });
    return lookup;
  }

  private async act(attempt: ChargeAttemptEntity, decision: ResolutionDecision, tryNumber: number, lookup: LookupResult, lookupStartedAt: Date): Promise<void> {
    switch (decision.action) {
      case 'apply':
        await this.apply(attempt, decision.status, decision.providerChargeId, lookup);
        return;
      case 'fail_not_found':
        await this.failNotFound(attempt, tryNumber, lookupStartedAt);
        return;
      case 'wait':
        await this.jobs.scheduleResolution(attempt.id, attempt.provider, tryNumber, resolutionDelayMs(this.schedule, tryNumber + 1));
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

  /**
   * Fails the attempt unless, under the charge-then-attempt locks, something moved since the lookup left: a webhook
   * named its provider charge (the charge exists: the next try retrieves it directly), or a send ended later than
   * the lookup's start allows (a late sender's lease or answer), so the grace no longer covers the lookup. A send
   * the provider answered 2xx (`created_not_final`: it created something we could not read, e.g. an Asaas refund
   * whose `refunds[]` did not show it) is never absent, whatever a lookup says: a person decides, since failing it
   * would free its amount for a second send the provider would execute again.
   */
  private async failNotFound(attempt: ChargeAttemptEntity, tryNumber: number, lookupStartedAt: Date): Promise<void> {
    const attemptId = attempt.id;
    const next = await this.db.transaction(async (em): Promise<'done' | 'ask_again' | 'created'> => {
      const locked = await lockChargeAndAttempt(em, attemptId);
      if (!locked || locked.status !== 'unknown') return 'done';
      if (locked.providerChargeId) return 'ask_again';
      const [{ covered, created }] = await em.query<Array<{ covered: boolean; created: boolean }>>(
        `SELECT $2::timestamptz >= COALESCE(last_send_ended_at, last_sent_at, created_at) + ${msInterval('$3')} AS covered,
                COALESCE(last_error->>'reason' = 'created_not_final', false) AS created
           FROM charge_attempts WHERE id = $1`,
        [attemptId, lookupStartedAt, this.config.CONSISTENT_LOOKUP_GRACE_MS],
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
  private async apply(attempt: ChargeAttemptEntity, to: 'succeeded' | 'failed', providerChargeId: string, lookup: LookupResult): Promise<void> {
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
