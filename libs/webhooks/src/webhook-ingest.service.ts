import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { AttemptTransitionWriter } from '@app/attempts';
import { ChargeAttemptEntity, ChargeEntity, isUniqueViolation } from '@app/database';
import { ReviewItemsService } from '@app/review';
import type { ProviderWebhookEvent, WebhookDecoder } from './provider-webhook-event.js';
import { decideWebhook, type WebhookDisposition } from './webhook-decision.js';
import { UnknownWebhookProviderError, WebhookRejectedError } from './webhooks.errors.js';

export const WEBHOOK_DECODERS = Symbol('WEBHOOK_DECODERS');

export interface IngestResult {
  duplicate: boolean;
  disposition: string;
}

interface Stored {
  result: IngestResult;
  /** A person must look at this attempt; opened once the transaction has committed. */
  review?: { attemptId: string; reason: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Store, match, apply: all in one transaction, so a crash leaves nothing half done and the provider's
 * redelivery starts over. The unique (provider, event id) makes concurrent duplicates wait for the
 * first and then do nothing. Never calls a provider.
 */
@Injectable()
export class WebhookIngestService {
  private readonly logger = new Logger(WebhookIngestService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(WEBHOOK_DECODERS) private readonly decoders: WebhookDecoder[],
    private readonly transitions: AttemptTransitionWriter,
    private readonly review: ReviewItemsService,
  ) {}

  async ingest(provider: string, rawBody: Buffer | undefined, headers: Record<string, string | string[] | undefined>): Promise<IngestResult> {
    const decoder = this.decoders.find((d) => d.provider === provider);
    if (!decoder) throw new UnknownWebhookProviderError(provider);
    const decoded = decoder.decode(rawBody ?? Buffer.alloc(0), headers, Math.floor(Date.now() / 1000));
    if (!decoded.ok) throw new WebhookRejectedError(provider, decoded.reason);
    const { event, payload } = decoded;
    let stored: Stored;
    try {
      stored = await this.db.transaction((em) => this.storeAndApply(em, provider, event, payload));
    } catch (error) {
      if (!isUniqueViolation(error) || isUniqueViolation(error, 'uq_webhook_events_provider_event')) throw error;
      // The event names a provider charge that would be a second success for its charge: money taken twice.
      stored = await this.db.transaction((em) => this.storeDuplicateCharge(em, provider, event, payload));
    }
    // After the commit: the review item references the attempt row this transaction held locked.
    if (stored.review) await this.review.open(stored.review.attemptId, stored.review.reason, { webhookEventId: event.eventId, providerChargeId: event.providerChargeId, type: event.type });
    return stored.result;
  }

  private async storeAndApply(em: EntityManager, provider: string, event: ProviderWebhookEvent, payload: unknown): Promise<Stored> {
    const eventRowId = await this.insertEvent(em, provider, event, payload);
    if (!eventRowId) return { result: { duplicate: true, disposition: 'duplicate' } };
    const attempt = await this.matchAttempt(em, event);
    if (!attempt) {
      await this.setDisposition(em, eventRowId, null, 'unmatched', null);
      this.logger.warn({ provider, eventId: event.eventId, type: event.type }, 'webhook for an unknown reference kept for reconciliation');
      return { result: { duplicate: false, disposition: 'unmatched' } };
    }
    const charge = await em.findOneByOrFail(ChargeEntity, { id: attempt.chargeId });
    const decision = decideWebhook(event, attempt, charge);
    const disposition = decision.action === 'transition' ? 'applied' : decision.action === 'flag' ? 'flagged' : 'no_change';
    if (decision.action === 'transition') {
      await this.transitions.apply(
        {
          attemptId: attempt.id,
          from: attempt.status,
          to: decision.to,
          cause: 'webhook',
          actor: `webhook:${provider}`,
          set: event.providerChargeId ? { providerChargeId: event.providerChargeId } : {},
          detail: { eventId: event.eventId, type: event.type },
        },
        em,
      );
    } else if (decision.action === 'none' && event.providerChargeId && !attempt.providerChargeId) {
      // Progress events still teach us the provider's id, which makes the resolver's lookup a direct retrieve.
      await em.update(ChargeAttemptEntity, { id: attempt.id, providerChargeId: IsNull() }, { providerChargeId: event.providerChargeId });
    }
    await this.setDisposition(em, eventRowId, attempt.id, disposition, decision);
    this.logger.log({ provider, eventId: event.eventId, type: event.type, attemptId: attempt.id, disposition }, 'webhook processed');
    return { result: { duplicate: false, disposition }, review: reviewFor(decision, event, attempt.id) };
  }

  private async storeDuplicateCharge(em: EntityManager, provider: string, event: ProviderWebhookEvent, payload: unknown): Promise<Stored> {
    const eventRowId = await this.insertEvent(em, provider, event, payload);
    if (!eventRowId) return { result: { duplicate: true, disposition: 'duplicate' } };
    const attempt = await this.matchAttempt(em, event);
    await this.setDisposition(em, eventRowId, attempt?.id ?? null, 'flagged', { reason: 'duplicate_provider_charge' });
    return {
      result: { duplicate: false, disposition: 'flagged' },
      review: attempt ? { attemptId: attempt.id, reason: 'duplicate_provider_charges' } : undefined,
    };
  }

  private async insertEvent(em: EntityManager, provider: string, event: ProviderWebhookEvent, payload: unknown): Promise<string | null> {
    const id = randomUUID();
    const rows = await em.query<unknown[]>(
      `INSERT INTO webhook_events (id, provider, event_id, type, provider_charge_id, disposition, payload)
       VALUES ($1, $2, $3, $4, $5, 'received', $6) ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
      [id, provider, event.eventId, event.type, event.providerChargeId, JSON.stringify(payload)],
    );
    return rows.length === 1 ? id : null;
  }

  /** By our reference first, then by the provider's id. Locked, so the status we decide on is current. */
  private async matchAttempt(em: EntityManager, event: ProviderWebhookEvent): Promise<ChargeAttemptEntity | null> {
    const repo = em.getRepository(ChargeAttemptEntity);
    const lock = { mode: 'pessimistic_write' } as const;
    if (event.attemptId && UUID.test(event.attemptId)) {
      const byReference = await repo.findOne({ where: { id: event.attemptId }, lock });
      if (byReference) return byReference;
    }
    if (event.providerChargeId) return repo.findOne({ where: { providerChargeId: event.providerChargeId }, lock });
    return null;
  }

  private async setDisposition(em: EntityManager, id: string, attemptId: string | null, disposition: string, detail: unknown): Promise<void> {
    await em.query(`UPDATE webhook_events SET attempt_id = $2, disposition = $3, detail = $4 WHERE id = $1`, [id, attemptId, disposition, detail === null ? null : JSON.stringify(detail)]);
  }
}

/**
 * Flags that mean money may have moved in a way we did not record: the provider took money for an attempt
 * we had settled as failed, or took a different amount. Both need a person (and likely a refund).
 */
function reviewFor(decision: WebhookDisposition, event: ProviderWebhookEvent, attemptId: string): Stored['review'] {
  if (decision.action !== 'flag') return undefined;
  if (decision.reason === 'amount_mismatch') return { attemptId, reason: 'amount_mismatch' };
  if (decision.reason === 'second_provider_charge') return { attemptId, reason: 'duplicate_provider_charges' };
  return event.outcome === 'succeeded' ? { attemptId, reason: 'provider_success_after_failure' } : undefined;
}
