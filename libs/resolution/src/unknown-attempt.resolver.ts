import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttemptTransitionWriter, ProviderCallRecorder, parseBackoffList } from '@app/attempts';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity, ChargeEntity, isUniqueViolation } from '@app/database';
import { GatewayRegistry, type LookupResult, type PaymentGateway } from '@app/gateways';
import { AttemptJobs } from '@app/queues';
import { ReviewItemsService } from '@app/review';
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
    private readonly jobs: AttemptJobs,
    private readonly review: ReviewItemsService,
    private readonly config: AppConfig,
  ) {
    this.schedule = parseBackoffList(config.RESOLUTION_BACKOFF_MS, 'RESOLUTION_BACKOFF_MS');
  }

  async resolve(attemptId: string): Promise<ResolutionDecision | null> {
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneBy({ id: attemptId });
    // A webhook, a second resolver or a person got there first: nothing left to do.
    if (!attempt || attempt.status !== 'unknown') return null;
    const charge = await this.db.getRepository(ChargeEntity).findOneByOrFail({ id: attempt.chargeId });
    const gateway = this.gateways.get(attempt.provider);

    const lookup = await this.lookup(gateway, attempt, charge);
    const tryNumber = await this.countTry(attemptId);
    if (tryNumber === null) return null;
    const decision = decideResolution({
      lookup,
      attemptCreatedAt: attempt.createdAt,
      lastSentAt: attempt.lastSentAt,
      now: new Date(),
      capabilities: gateway.capabilities,
      consistentGraceMs: this.config.CONSISTENT_LOOKUP_GRACE_MS,
      tryNumber,
      maxTries: this.config.RESOLUTION_MAX_TRIES,
      expected: { amountCents: charge.amountCents, currency: charge.currency },
    });
    this.logger.log({ attemptId, chargeId: charge.id, provider: attempt.provider, tryNumber, decision: decision.action }, 'resolution try');
    await this.act(attempt, decision, tryNumber, lookup);
    return decision;
  }

  private async lookup(gateway: PaymentGateway, attempt: ChargeAttemptEntity, charge: ChargeEntity): Promise<LookupResult> {
    const lookup = await gateway.findByReference({
      attemptId: attempt.id,
      chargeId: charge.id,
      customerId: charge.customerId,
      createdAt: attempt.createdAt,
      providerChargeId: attempt.providerChargeId,
    });
    await this.calls.record({
      attemptId: attempt.id,
      provider: attempt.provider,
      kind: 'lookup',
      outcome: lookup.kind,
      httpStatus: lookup.kind === 'error' ? lookup.httpStatus : 200,
      durationMs: lookup.durationMs,
      detail: summarise(lookup),
    });
    return lookup;
  }

  /** Counts this try only while the attempt is still unknown; null means someone resolved it meanwhile. */
  private async countTry(attemptId: string): Promise<number | null> {
    const [rows] = await this.db.query<[Array<{ resolution_tries: number }>, number]>(
      `UPDATE charge_attempts SET resolution_tries = resolution_tries + 1, updated_at = now()
        WHERE id = $1 AND status = 'unknown' RETURNING resolution_tries`,
      [attemptId],
    );
    return rows[0]?.resolution_tries ?? null;
  }

  private async act(attempt: ChargeAttemptEntity, decision: ResolutionDecision, tryNumber: number, lookup: LookupResult): Promise<void> {
    switch (decision.action) {
      case 'apply':
        await this.apply(attempt, decision.status, decision.providerChargeId, lookup);
        return;
      case 'fail_not_found':
        await this.transitions.apply({ attemptId: attempt.id, from: 'unknown', to: 'failed', cause: 'resolver', actor: 'resolver', detail: { reason: 'not_found_after_window', tryNumber } });
        return;
      case 'wait':
        await this.jobs.scheduleResolution(attempt.id, tryNumber, resolutionDelayMs(this.schedule, tryNumber + 1));
        return;
      case 'review':
        await this.review.open(attempt.id, decision.reason, { decision, lastLookup: summarise(lookup) });
        return;
    }
  }

  private async apply(attempt: ChargeAttemptEntity, to: 'succeeded' | 'failed', providerChargeId: string, lookup: LookupResult): Promise<void> {
    try {
      await this.transitions.apply({
        attemptId: attempt.id,
        from: 'unknown',
        to,
        cause: 'resolver',
        actor: 'resolver',
        set: { providerChargeId },
        detail: { providerChargeId },
      });
    } catch (error) {
      // A second success for one charge, or a provider charge already owned by another attempt: the
      // provider took money twice. That is for a person (and a refund), never for an automatic guess.
      if (!isUniqueViolation(error)) throw error;
      await this.review.open(attempt.id, 'duplicate_provider_charges', { providerChargeId, lastLookup: summarise(lookup) });
    }
  }
}

/** What a lookup proved, small enough to keep as evidence. */
function summarise(lookup: LookupResult): Record<string, unknown> {
  if (lookup.kind === 'error') return { kind: 'error', message: lookup.message, httpStatus: lookup.httpStatus };
  if (lookup.kind === 'not_found') return { kind: 'not_found', consistent: lookup.consistent };
  return {
    kind: 'found',
    consistent: lookup.consistent,
    charges: lookup.charges.map((c) => ({ providerChargeId: c.providerChargeId, outcome: c.outcome, amountCents: c.amountCents, currency: c.currency })),
  };
}
