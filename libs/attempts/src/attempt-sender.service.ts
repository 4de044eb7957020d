import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { ChargeAttemptEntity } from '@app/database';
import { GatewayRegistry, type GatewayCallResult, type PaymentGateway } from '@app/gateways';
import { AttemptJobs } from '@app/queues';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';
import { delayForTry, parseBackoffList } from './rules/backoff-schedule.js';
import { assertSamePayload } from './rules/canonical-payload.js';
import { classifyGatewayResponse, type AttemptOutcome } from './rules/classify-gateway-response.js';
import { mayResend } from './rules/key-lifetime.js';

/**
 * Phases 2 and 3 of a submit: claim the right to send (a conditional update with a lease, so two
 * processes never send one attempt at once), make exactly one HTTP call outside any transaction, and
 * record what the response proved with a conditional transition. Repetition is a queued job, never a loop.
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
    private readonly jobs: AttemptJobs,
    private readonly config: AppConfig,
  ) {
    this.retrySchedule = parseBackoffList(config.SUBMIT_RETRY_BACKOFF_MS, 'SUBMIT_RETRY_BACKOFF_MS');
    this.firstResolutionDelayMs = parseBackoffList(config.RESOLUTION_BACKOFF_MS, 'RESOLUTION_BACKOFF_MS')[0];
  }

  /** Sends the attempt if it is pending, unclaimed and due; otherwise leaves it to whoever owns it. */
  async send(attemptId: string, actor: string): Promise<void> {
    const attempt = await this.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: attemptId });
    if (attempt.status !== 'pending' || attempt.leaseExpiresAt) return;
    const gateway = this.gateways.get(attempt.provider);
    if (attempt.httpAttempts > 0 && !this.mayResend(attempt, gateway)) {
      await this.markUnknown(attempt, actor, { reason: 'key_lifetime_exceeded' });
      return;
    }
    // A payload that no longer matches its key's hash would burn the key or charge a different amount.
    assertSamePayload(attempt.payloadHash, attempt.payload);
    const claimed = await this.claim(attemptId);
    if (claimed === null) return;

    const result = await this.call(gateway, attempt);
    const outcome = classifyGatewayResponse(result);
    await this.calls.record({
      attemptId,
      provider: attempt.provider,
      kind: 'create',
      outcome: outcome.reason,
      httpStatus: result.kind === 'response' ? result.httpStatus : null,
      durationMs: result.durationMs,
      detail: { httpAttempt: claimed, replayed: result.kind === 'response' ? result.replayed : false, error: outcome.error },
    });
    this.logger.log({ attemptId, chargeId: attempt.chargeId, idempotencyKey: attempt.idempotencyKey, provider: attempt.provider, outcome: outcome.reason, status: outcome.status }, 'provider call classified');
    await this.record(attempt, claimed, outcome, actor);
  }

  private mayResend(attempt: ChargeAttemptEntity, gateway: PaymentGateway): boolean {
    return mayResend({
      attemptCreatedAt: attempt.createdAt,
      now: new Date(),
      capabilities: gateway.capabilities,
      marginMs: this.config.KEY_LIFETIME_MARGIN_MS,
    });
  }

  /** Returns the claim number (the new http_attempts), or null when someone else holds or owns the attempt. */
  private async claim(attemptId: string): Promise<number | null> {
    const rows = await this.db.query<[Array<{ http_attempts: number }>, number]>(
      `UPDATE charge_attempts
          SET http_attempts = http_attempts + 1,
              lease_expires_at = now() + make_interval(secs => $2::double precision / 1000),
              last_sent_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'pending' AND lease_expires_at IS NULL
          AND (next_send_at IS NULL OR next_send_at <= now())
        RETURNING http_attempts`,
      [attemptId, this.config.SUBMIT_LEASE_MS],
    );
    return rows[0][0]?.http_attempts ?? null;
  }

  private async call(gateway: PaymentGateway, attempt: ChargeAttemptEntity): Promise<GatewayCallResult> {
    try {
      return await gateway.createCharge(attempt.idempotencyKey, attempt.payload);
    } catch (error) {
      // An adapter that throws may have sent the request: that is an unknown outcome, not a failure.
      return { kind: 'no_response', errorCode: 'adapter_error', message: (error as Error).message, durationMs: 0 };
    }
  }

  private async record(attempt: ChargeAttemptEntity, claimed: number, outcome: AttemptOutcome, actor: string): Promise<void> {
    const lastError = outcome.error ? { reason: outcome.reason, ...outcome.error } : null;
    if (outcome.status === 'pending') {
      await this.releaseForRetry(attempt.id, claimed, lastError);
      return;
    }
    const transition = {
      attemptId: attempt.id,
      to: outcome.status,
      cause: 'submit',
      actor,
      set: { providerChargeId: outcome.providerChargeId, lastError },
      detail: { reason: outcome.reason, httpAttempt: claimed },
    } as const;
    if (await this.transitions.apply({ ...transition, from: 'pending', expectHttpAttempts: claimed })) {
      if (outcome.status === 'unknown') await this.jobs.scheduleResolution(attempt.id, 0, this.firstResolutionDelayMs);
      return;
    }
    // Someone moved the attempt while we were on the wire (the sweeper thought we died). A definitive
    // response still settles it if it is merely unknown; a terminal status is never rewritten.
    if (outcome.status !== 'unknown') await this.transitions.apply({ ...transition, from: 'unknown' });
  }

  /** Nothing reached the provider (connect failure, 429): same key and bytes again after a backoff. */
  private async releaseForRetry(attemptId: string, claimed: number, lastError: Record<string, unknown> | null): Promise<void> {
    const delayMs = delayForTry(this.retrySchedule, claimed - 1);
    const [, affected] = await this.db.query<[unknown, number]>(
      `UPDATE charge_attempts
          SET lease_expires_at = NULL, last_error = $3,
              next_send_at = now() + make_interval(secs => $4::double precision / 1000), updated_at = now()
        WHERE id = $1 AND status = 'pending' AND http_attempts = $2`,
      [attemptId, claimed, lastError, delayMs],
    );
    if (affected === 1) await this.jobs.scheduleSend(attemptId, claimed, delayMs);
  }

  private async markUnknown(attempt: ChargeAttemptEntity, actor: string, detail: Record<string, unknown>): Promise<void> {
    const moved = await this.transitions.apply({ attemptId: attempt.id, from: 'pending', to: 'unknown', cause: 'submit', actor, detail });
    if (moved) await this.jobs.scheduleResolution(attempt.id, 0, 0);
  }
}
