import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '@app/config';
import { AttemptEntity, uniqueOrNull } from '@app/database';
import { GatewayRegistry, type ProviderPorts } from '@app/gateways';
import { attemptTransitionsTotal, providerCallSeconds, providerCallsTotal } from '@app/observability';
import { AttemptJobs } from '@app/queues';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { claimSend, markSendEnded, releaseForRetry, renewClaim } from './store/attempt-claims.store.js';
import { settleChargeSend, type SettledSend } from './store/attempt-transition.store.js';
import { ProviderCallRecorder, type ProviderCallRecord } from './provider-call.recorder.js';
import { ProviderFactApplier } from './provider-fact.applier.js';
import { FirstSendChecker } from './first-send.check.js';
import { openReviewItem } from '@app/review/items';
import { createAndClassify } from './provider-create.call.js';
import { PayloadMismatchError } from './rules/attempt-rules.errors.js';
import { delayForTry } from './rules/backoff-schedule.js';
import { assertSamePayload } from './rules/canonical-payload.js';
import type { AttemptOutcome } from './rules/classify-gateway-response.js';
import { mayResend, sendProvedUnreceived } from './rules/key-lifetime.js';

/**
 * Phases 2 and 3 of a submit: hold the claim to send (a conditional update with a lease, so two processes
 * never send one attempt at once), make exactly one HTTP call outside any transaction, and record what the
 * response proved with a conditional transition. Repetition is a queued job, never a loop.
 */
@Injectable()
export class AttemptSender {
  private readonly logger = new Logger(AttemptSender.name);
  private readonly retrySchedule: number[];
  private readonly firstResolutionDelayMs: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly transitions: AttemptTransitionWriter,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
    private readonly firstSendCheck: FirstSendChecker,
    private readonly jobs: AttemptJobs,
    private readonly config: AppConfig,
  ) {
    this.retrySchedule = config.SUBMIT_RETRY_BACKOFF_MS;
    this.firstResolutionDelayMs = config.RESOLUTION_BACKOFF_MS[0];
  }

  /** Sends a pending attempt if it is unclaimed and due; otherwise leaves it to whoever owns it. */
  async send(attemptId: string, actor: string): Promise<void> {
    const attempt = await this.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
    if (attempt.status !== 'pending' || attempt.leaseExpiresAt) return;
    const gateway = this.gateways.forAttempt(attempt.provider);
    if (attempt.httpAttempts > 0 && !this.mayResend(attempt, gateway)) {
      const reason = gateway.capabilities.nativeIdempotency ? 'key_lifetime_exceeded' : 'resend_without_idempotency';
      await this.markUnknown(attempt, actor, { reason });
      return;
    }
    if (!(await this.payloadIntact(attempt, actor))) return;
    const claimed = await claimSend(this.db, attemptId, this.config.SUBMIT_LEASE_MS);
    if (claimed !== null) await this.dispatch(gateway, attempt, claimed, actor);
  }

  /**
   * Sends an attempt that was created already claimed (its first send), so no second claim is needed. Returns
   * what it wrote when the result settled in the one-statement write (the caller can show it without reading
   * it back), or null when anything else happened (read the attempt again). `chargeCreatedAt`: a charge attempt's
   * charge creation, when the caller read it, spares the first-send check a read of its own.
   */
  async sendClaimed(attempt: AttemptEntity, actor: string, chargeCreatedAt?: Date): Promise<SettledSend | null> {
    if (!(await this.payloadIntact(attempt, actor))) return null;
    return this.dispatch(this.gateways.forAttempt(attempt.provider), attempt, attempt.httpAttempts, actor, chargeCreatedAt);
  }

  private async dispatch(gateway: ProviderPorts, attempt: AttemptEntity, claimed: number, actor: string, chargeCreatedAt?: Date): Promise<SettledSend | null> {
    let firstSendCheck: Record<string, unknown> | undefined;
    if (await this.firstSendCheck.applies(gateway, attempt, claimed, chargeCreatedAt)) {
      const checked = await this.firstSendCheck.run(gateway, attempt, actor);
      if (checked.kind === 'found') {
        if (checked.unknown) await this.jobs.scheduleResolution(attempt.id, attempt.provider, 0, this.firstResolutionDelayMs);
        return null;
      }
      if (checked.kind === 'unanswered') {
        // Past the retry schedule the attempt is unknown: resolution asks on, and a person decides if it never answers.
        if (claimed > this.retrySchedule.length) {
          await this.markUnknown(attempt, actor, checked.lastError);
          return null;
        }
        // Nothing of the create left: released like a refused connection, the check runs again before it does.
        if (await this.db.transaction((em) => this.releaseForRetry(em, attempt.id, claimed, checked.lastError))) {
          await this.jobs.scheduleSend(attempt.id, claimed, delayForTry(this.retrySchedule, claimed - 1));
        }
        return null;
      }
      // Two calls under one claim: the create goes only if the claim is still ours, for a whole lease again.
      if (!(await renewClaim(this.db, attempt.id, claimed, this.config.SUBMIT_LEASE_MS))) return null;
      firstSendCheck = checked.summary;
    }
    const { result, outcome } = await createAndClassify(gateway, attempt, claimed);
    this.logger.log(
      { attemptId: attempt.id, chargeId: attempt.chargeId, operation: attempt.operation, idempotencyKey: attempt.idempotencyKey, provider: attempt.provider, outcome: outcome.reason, status: outcome.status },
      'provider call classified',
    );
    const evidence: ProviderCallRecord = {
      attemptId: attempt.id,
      provider: attempt.provider,
      kind: 'create',
      outcome: outcome.reason,
      httpStatus: result.kind === 'response' ? result.httpStatus : null,
      durationMs: result.durationMs,
      detail: { httpAttempt: claimed, replayed: result.kind === 'response' ? result.replayed : false, error: outcome.error, ...(firstSendCheck ? { firstSendCheck } : {}) },
    };
    return this.record(attempt, claimed, outcome, evidence, actor);
  }

  private mayResend(attempt: AttemptEntity, gateway: ProviderPorts): boolean {
    return mayResend({
      attemptCreatedAt: attempt.createdAt,
      now: new Date(),
      capabilities: gateway.capabilities,
      marginMs: this.config.KEY_LIFETIME_MARGIN_MS,
      previousSendsUnreceived: sendProvedUnreceived(attempt.lastError),
    });
  }

  /** The evidence and the transition it justifies commit together. */
  private async record(attempt: AttemptEntity, claimed: number, outcome: AttemptOutcome, evidence: ProviderCallRecord, actor: string): Promise<SettledSend | null> {
    const lastError = outcome.error ? { reason: outcome.reason, ...outcome.error } : null;
    // A charge's send that settled the attempt as expected: one statement (see settleChargeSend). Refunds and
    // payouts keep the writer's hooks; a pending result or a lost claim takes the full path below.
    if (attempt.operation === 'charge' && outcome.status !== 'pending') {
      const settled = await settleChargeSend(this.db, {
        attemptId: attempt.id,
        claimed,
        to: outcome.status,
        providerChargeId: outcome.providerChargeId,
        lastError,
        actor,
        transitionDetail: { reason: outcome.reason, httpAttempt: claimed },
        call: { outcome: evidence.outcome, httpStatus: evidence.httpStatus, durationMs: evidence.durationMs, detail: evidence.detail ?? {} },
      });
      if (settled) {
        providerCallsTotal.inc({ provider: attempt.provider, kind: evidence.kind, outcome: evidence.outcome });
        providerCallSeconds.observe({ provider: attempt.provider, kind: evidence.kind }, evidence.durationMs / 1000);
        attemptTransitionsTotal.inc({ provider: attempt.provider, to: outcome.status, cause: 'submit' });
        if (settled.status === 'unknown') await this.jobs.scheduleResolution(attempt.id, attempt.provider, 0, this.firstResolutionDelayMs);
        return settled;
      }
    }
    // Lock order: the attempt row is written (or, on the late path, the charge then the attempt are locked)
    // BEFORE the evidence row that references it is inserted. An insert referencing the attempt first would
    // hold a key-share lock on it that a webhook, holding the charge lock and updating the attempt's unique
    // provider id, must wait for, while this transaction waits for the webhook: a deadlock in the happy path.
    const next = await this.db.transaction(async (em) => {
      const step = outcome.status === 'pending'
        ? await this.releaseForRetry(em, attempt.id, claimed, lastError)
        : await this.settle(em, attempt, claimed, outcome, lastError, actor, evidence);
      await this.calls.record(evidence, em);
      return step;
    });
    if (next === 'retry') await this.jobs.scheduleSend(attempt.id, claimed, delayForTry(this.retrySchedule, claimed - 1));
    if (next === 'resolve') await this.jobs.scheduleResolution(attempt.id, attempt.provider, 0, this.firstResolutionDelayMs);
    return null;
  }

  private async settle(
    em: EntityManager,
    attempt: AttemptEntity,
    claimed: number,
    outcome: AttemptOutcome,
    lastError: Record<string, unknown> | null,
    actor: string,
    evidence: ProviderCallRecord,
  ): Promise<'resolve' | null> {
    // A success the database refuses (the charge is captured by another attempt) is a fact like a late one: below.
    const settled = await uniqueOrNull(em, () => this.transitions.apply(
      {
        attemptId: attempt.id,
        from: 'pending',
        to: outcome.status,
        cause: 'submit',
        actor,
        set: { providerRef: outcome.providerChargeId, lastError },
        sendEnded: true,
        expectHttpAttempts: claimed,
        detail: { reason: outcome.reason, httpAttempt: claimed },
      },
      em,
    ));
    if (settled) return outcome.status === 'unknown' ? 'resolve' : null;
    // Someone moved the attempt while we were on the wire (the sweeper thought we died, then a resolver may
    // have failed it as not found). A definitive answer is never dropped: it settles an open attempt, agrees
    // with a terminal one, or contradicts it and goes to a person in this same transaction. An unknown answer
    // that names a provider charge still proves the charge exists (a 2xx still processing, a 5xx with an id).
    const proven = outcome.status !== 'unknown' ? outcome.status : outcome.providerChargeId ? 'pending' : null;
    if (proven) {
      await this.facts.apply(
        em,
        attempt.id,
        { outcome: proven, providerChargeId: outcome.providerChargeId, amountCents: null, currency: null },
        { cause: 'submit', actor, evidence: { reason: outcome.reason, httpAttempt: claimed, httpStatus: evidence.httpStatus, lateResponse: true } },
      );
    }
    // The send only ended now, so any grace still to run counts from here (after the applier's charge-first locks).
    await markSendEnded(em, attempt.id);
    return null;
  }

  /** Nothing reached the provider (connect failure, 429): same key and bytes again after a backoff. */
  private async releaseForRetry(em: EntityManager, attemptId: string, claimed: number, lastError: Record<string, unknown> | null): Promise<'retry' | null> {
    return (await releaseForRetry(em, attemptId, claimed, lastError, delayForTry(this.retrySchedule, claimed - 1))) ? 'retry' : null;
  }

  /**
   * A payload that no longer matches its key's hash would burn the key or charge a different amount, and
   * requeueing cannot fix a bug or a bad deploy: it is never sent. The attempt becomes unknown (it may have
   * gone out before) and a person decides, with both hashes as evidence.
   */
  private async payloadIntact(attempt: AttemptEntity, actor: string): Promise<boolean> {
    try {
      assertSamePayload(attempt.payloadHash, attempt.payload);
      return true;
    } catch (error) {
      if (!(error instanceof PayloadMismatchError)) throw error;
      this.logger.error({ attemptId: attempt.id, chargeId: attempt.chargeId, provider: attempt.provider }, 'stored payload no longer matches its hash');
      await this.db.transaction(async (em) => {
        const detail = { reason: 'payload_mismatch', storedHash: error.storedHash, actualHash: error.actualHash };
        const moved = await this.transitions.apply({ attemptId: attempt.id, from: 'pending', to: 'unknown', cause: 'submit', actor, detail }, em);
        if (moved) await openReviewItem(em, attempt.id, 'payload_mismatch', detail);
      });
      return false;
    }
  }

  private async markUnknown(attempt: AttemptEntity, actor: string, detail: Record<string, unknown>): Promise<void> {
    const moved = await this.transitions.apply({ attemptId: attempt.id, from: 'pending', to: 'unknown', cause: 'submit', actor, detail });
    if (moved) await this.jobs.scheduleResolution(attempt.id, attempt.provider, 0, 0);
  }
}
