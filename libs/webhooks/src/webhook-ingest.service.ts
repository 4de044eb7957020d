import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ProviderFactApplier, lockChargeAndAttempt, type FactDisposition, type LockedAttempt } from '@app/attempts';
import { recordDisputeStatus, recordProviderRefundedTotal } from '@app/charges/store';
import { openReviewItem } from '@app/review/items';
import { isUuid } from '@app/common';
import type { MoneyMovedBack, ProviderWebhookEvent, WebhookHeaders, WebhookTransport } from '@app/gateways';
import { WebhookDecoderRegistry } from './webhook-decoder.registry.js';
import { matchRefundAttempt, proposalRefundsExplain, refundedTotalExplained } from './our-refunds.query.js';
import { WebhookRejectedError } from './webhooks.errors.js';

export interface IngestResult {
  duplicate: boolean;
  disposition: string;
}

/** What an event did: a provider fact's disposition, or money moved back that a person must see. */
type EventDecision =
  | FactDisposition
  | { action: 'review'; reason: 'provider_refund' | 'dispute_opened' | 'dispute_closed' }
  /** The provider's refunded total, kept on the charge, is what our own refunds account for: nothing to decide. */
  | { action: 'recorded'; reason: 'refund_explained_by_ours' | 'refund_explained_by_proposal' };

/**
 * Store, match, apply: all in one transaction, review item included, so a crash leaves nothing half done
 * and the provider's redelivery starts over (a committed event is a duplicate only once everything it
 * caused has committed with it). The unique (provider, event id) makes concurrent duplicates wait for the
 * first and then do nothing. Never calls a provider.
 */
@Injectable()
export class WebhookIngestService {
  private readonly logger = new Logger(WebhookIngestService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly decoders: WebhookDecoderRegistry,
    private readonly facts: ProviderFactApplier,
  ) {}

  async ingest(provider: string, rawBody: Buffer | undefined, headers: WebhookHeaders, transport?: WebhookTransport): Promise<IngestResult> {
    const decoded = this.decoders.get(provider).decode(rawBody ?? Buffer.alloc(0), headers, Math.floor(Date.now() / 1000), transport);
    if (!decoded.ok) throw new WebhookRejectedError(provider, decoded.reason);
    const { event, payload } = decoded;
    if (!decoded.more?.length) return this.db.transaction((em) => this.storeAndApply(em, provider, event, payload));
    // A batch commits whole: a crash mid-way leaves nothing applied, and the redelivery starts over.
    return this.db.transaction(async (em) => {
      const results: IngestResult[] = [];
      for (const each of [event, ...(decoded.more ?? [])]) results.push(await this.storeAndApply(em, provider, each, payload));
      return { duplicate: results.every((r) => r.duplicate), disposition: results.map((r) => r.disposition).join(',') };
    });
  }

  private async storeAndApply(em: EntityManager, provider: string, event: ProviderWebhookEvent, payload: unknown): Promise<IngestResult> {
    const eventRowId = await this.insertEvent(em, provider, event, payload);
    if (!eventRowId) return { duplicate: true, disposition: 'duplicate' };
    // A refund of ours is a fact about its refund attempt, applied like any other; only a refund that is
    // not ours is money moved back that a person must see.
    const refundAttemptId = event.refund ? await matchRefundAttempt(em, provider, event.refund) : null;
    if (refundAttemptId && event.refund) {
      const { providerRefundId, outcome, amountCents, currency } = event.refund;
      if (provesNothing(event.refund)) return this.unproven(em, provider, event, eventRowId, refundAttemptId);
      const evidence = { webhookEventId: event.eventId, type: event.type, providerRefundId };
      const fact = { outcome, providerChargeId: providerRefundId, amountCents, currency };
      return this.finish(em, provider, event, eventRowId, refundAttemptId, await this.facts.apply(em, refundAttemptId, fact, { cause: 'webhook', actor: `webhook:${provider}`, evidence }));
    }
    const attemptId = await this.matchAttempt(em, provider, event);
    if (!attemptId) {
      await this.setDisposition(em, eventRowId, null, 'unmatched', null);
      this.logger.warn({ provider, eventId: event.eventId, type: event.type }, 'webhook for an unknown reference kept for reconciliation');
      return { duplicate: false, disposition: 'unmatched' };
    }
    if (!event.afterSuccess && provesNothing(event)) return this.unproven(em, provider, event, eventRowId, attemptId);
    const evidence = { webhookEventId: event.eventId, type: event.type, providerChargeId: event.providerChargeId };
    const decision: EventDecision = event.afterSuccess
      ? await this.recordMoneyMovedBack(em, provider, attemptId, event.afterSuccess, event.providerChargeId, evidence)
      : await this.facts.apply(em, attemptId, event, { cause: 'webhook', actor: `webhook:${provider}`, evidence });
    return this.finish(em, provider, event, eventRowId, attemptId, decision);
  }

  /** Kept as evidence (never dropped), matched, and applied to nothing: the resolver's own lookup decides. */
  private async unproven(em: EntityManager, provider: string, event: ProviderWebhookEvent, eventRowId: string, attemptId: string): Promise<IngestResult> {
    await this.setDisposition(em, eventRowId, attemptId, 'unproven', { reason: 'a success without amount and currency proves nothing' });
    this.logger.warn({ provider, eventId: event.eventId, type: event.type, attemptId }, 'webhook success without amount and currency: kept, not applied');
    return { duplicate: false, disposition: 'unproven' };
  }

  private async finish(em: EntityManager, provider: string, event: ProviderWebhookEvent, eventRowId: string, attemptId: string, decision: EventDecision): Promise<IngestResult> {
    const disposition = decision.action === 'transition' || decision.action === 'recorded' ? 'applied' : decision.action === 'review' ? 'flagged' : 'no_change';
    await this.setDisposition(em, eventRowId, attemptId, disposition, decision);
    this.logger.log({ provider, eventId: event.eventId, type: event.type, attemptId, disposition }, 'webhook processed');
    return { duplicate: false, disposition };
  }

  /**
   * A refund or dispute: kept on the charge (the provider's refunded total only grows, and a closed dispute
   * status is final, so redelivered or reordered events cannot move either backwards), and shown to a person:
   * none of our attempts explains money going back.
   */
  private async recordMoneyMovedBack(
    em: EntityManager,
    provider: string,
    attemptId: string,
    moved: MoneyMovedBack,
    providerChargeId: string | null,
    evidence: Record<string, unknown>,
  ): Promise<EventDecision> {
    const locked = await lockChargeAndAttempt(em, attemptId);
    // Money moved back is about a charge: an attempt with no charge (a payout, a proposal's refund) never carries it.
    if (!locked?.chargeId) return { action: 'none', reason: 'not_actionable' };
    const chargeId = locked.chargeId;
    if (isAboutAnotherProviderCharge(locked, providerChargeId)) {
      // Another provider charge carrying our reference (a second charge): its totals are not our charge's, and
      // only the refund of its approved proposal explains money going back from it.
      if (moved.kind === 'refund' && moved.refundedCents !== null && providerChargeId !== null && (await proposalRefundsExplain(em, provider, providerChargeId, moved.refundedCents))) {
        return { action: 'recorded', reason: 'refund_explained_by_proposal' };
      }
      const reason = moved.kind === 'refund' ? 'provider_refund' : moved.closed ? 'dispute_closed' : 'dispute_opened';
      await openReviewItem(em, attemptId, reason, { ...evidence, ...moved, recordedStatus: locked.status, otherProviderCharge: true });
      return { action: 'review', reason };
    }
    if (moved.kind === 'refund' && moved.refundedCents !== null) {
      await recordProviderRefundedTotal(em, chargeId, moved.refundedCents);
    }
    if (moved.kind === 'dispute') await recordDisputeStatus(em, chargeId, moved);
    if (moved.kind === 'refund' && moved.refundedCents !== null) {
      const { explained } = await refundedTotalExplained(em, chargeId, moved.refundedCents);
      if (explained) return { action: 'recorded', reason: 'refund_explained_by_ours' };
    }
    const reason = moved.kind === 'refund' ? 'provider_refund' : moved.closed ? 'dispute_closed' : 'dispute_opened';
    await openReviewItem(em, attemptId, reason, { ...evidence, ...moved, recordedStatus: locked.status });
    return { action: 'review', reason };
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

  /**
   * By our reference first, then by the provider's id, among **this provider's** attempts only (in the SQL): an
   * event of one provider carrying another provider's attempt id stays unmatched. The applier locks what it decides on.
   */
  private async matchAttempt(em: EntityManager, provider: string, event: ProviderWebhookEvent): Promise<string | null> {
    const byReference = isUuid(event.attemptId) ? event.attemptId : null;
    const rows = await em.query<Array<{ id: string }>>(
      `SELECT id FROM attempts
        WHERE provider = $3 AND (id = $1 OR provider_ref = $2 OR late_capture_provider_charge_id = $2)
        ORDER BY (id = $1) DESC NULLS LAST LIMIT 1`,
      [byReference, event.providerChargeId, provider],
    );
    return rows[0]?.id ?? null;
  }

  private async setDisposition(em: EntityManager, id: string, attemptId: string | null, disposition: string, detail: unknown): Promise<void> {
    await em.query(`UPDATE webhook_events SET attempt_id = $2, disposition = $3, detail = $4 WHERE id = $1`, [id, attemptId, disposition, detail === null ? null : JSON.stringify(detail)]);
  }
}

/**
 * Whether money moved back from a provider charge other than our attempt's own: one the attempt never held (a
 * second charge carrying our reference), or any, when the attempt was failed and so holds none. Its totals are
 * not our charge's.
 */
function isAboutAnotherProviderCharge(locked: LockedAttempt, providerChargeId: string | null): boolean {
  if (providerChargeId === null) return false;
  // A late capture is the charge's own money, whatever the attempt's `failed` says.
  if (providerChargeId === locked.lateCaptureProviderChargeId) return false;
  if (locked.providerChargeId !== null) return providerChargeId !== locked.providerChargeId;
  return locked.status === 'failed';
}

/** A success that names no amount and currency cannot be checked against what we asked for: it proves nothing. */
function provesNothing(fact: { outcome: string | null; amountCents: number | null; currency: string | null }): boolean {
  return fact.outcome === 'succeeded' && (fact.amountCents === null || fact.currency === null);
}
