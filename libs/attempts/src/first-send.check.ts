import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import type { AttemptEntity } from '@app/database';
import { summariseLookup, type ProviderPorts } from '@app/gateways';
import { openReviewItem } from '@app/review/items';
import { AttemptTransitionWriter } from './attempt-transition.writer.js';
import { loadAttemptTarget, lookupAtProvider } from './attempt.operations.js';
import { AttemptNotFoundError } from './attempts.errors.js';
import { lockChargeAndAttempt } from './charge-lock.query.js';
import { ProviderCallRecorder } from './provider-call.recorder.js';
import { ProviderFactApplier } from './provider-fact.applier.js';
import { keyMayBeForgotten } from './rules/key-lifetime.js';

/** The reason a first send waits: the provider could not say whether this reference already created a payment. */
export const FIRST_SEND_CHECK_UNANSWERED = 'first_send_check_unanswered';

export type FirstSendCheck =
  | { kind: 'absent'; summary: Record<string, unknown> }
  /**
   * The provider holds a payment under this reference: recorded as a fact, nothing is sent. `unknown`: what it
   * showed settled nothing (a payment still waiting, or two of them), so the attempt is unknown and resolution goes on.
   */
  | { kind: 'found'; unknown: boolean }
  | { kind: 'unanswered'; lastError: Record<string, unknown> };

/**
 * A charge or refund attempt's id is derived (survivable-ids.ts, survivable-refund-ids.ts), so an attempt opened
 * again after its row was lost to a failover carries the lost one's reference. A provider with idempotency keys
 * replays the first request; one without (Asaas) would create a second payment or refund, so before such an
 * attempt's first request reaches that provider its reference is queried, and what is found there is applied like
 * any fact instead of sending. It costs one lookup per charge and per refund on those providers. A lagging search can miss a payment created within its consistency window, so the
 * check closes the gap for an attempt re-created after that window, not one re-created within seconds. A provider
 * with keys forgets them after their lifetime (Stripe: 24 h), so a charge older than that is checked the same way
 * before its first send: a lost attempt's key may already be pruned, and the replay would be a second charge.
 */
@Injectable()
export class FirstSendChecker {
  private readonly logger = new Logger(FirstSendChecker.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transitions: AttemptTransitionWriter,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
    private readonly config: AppConfig,
  ) {}

  /**
   * Whether this send must be preceded by the check: no create of this attempt has left yet. `chargeCreatedAt`:
   * the charge's creation when the caller read it; otherwise, for a provider with keys, it is read here.
   */
  async applies(gateway: ProviderPorts, attempt: AttemptEntity, claimed: number, chargeCreatedAt?: Date): Promise<boolean> {
    // A payout's transfer id is its key at the provider (Efí's idEnvio), which replays it.
    if (attempt.operation === 'payout') return false;
    if ((attempt.lastError as { reason?: unknown } | null)?.reason === FIRST_SEND_CHECK_UNANSWERED) return true;
    if (claimed !== 1) return false;
    const { nativeIdempotency, keyLifetimeMs } = gateway.capabilities;
    // A refund attempt's id is derived too (survivable-refund-ids.ts) and travels in the refund (Asaas: its
    // description), so one re-created after a lost commit finds the provider's refund instead of making a second.
    if (!nativeIdempotency) return true;
    // A refund re-created after a lost commit is younger than the lost one, so its age says nothing of the lost
    // key's: on a provider with keys a refund relies on the key's replay (README: what it does not cover yet).
    if (attempt.operation !== 'charge') return false;
    const createdAt = chargeCreatedAt ?? (await this.chargeCreatedAt(attempt.id));
    return keyMayBeForgotten({ chargeCreatedAt: createdAt, now: new Date(), keyLifetimeMs, marginMs: this.config.KEY_LIFETIME_MARGIN_MS });
  }

  private async chargeCreatedAt(attemptId: string): Promise<Date> {
    const [row] = await this.db.query<Array<{ created_at: Date }>>(`SELECT c.created_at FROM attempts a JOIN charges c ON c.id = a.charge_id WHERE a.id = $1`, [attemptId]);
    if (!row) throw new AttemptNotFoundError(attemptId);
    return row.created_at;
  }

  async run(gateway: ProviderPorts, attempt: AttemptEntity, actor: string): Promise<FirstSendCheck> {
    const target = await loadAttemptTarget(this.db.manager, attempt.id);
    if (!target) throw new AttemptNotFoundError(attempt.id);
    const lookup = await lookupAtProvider(gateway, target);
    const summary = summariseLookup(lookup);
    if (lookup.kind === 'not_found') return { kind: 'absent', summary };
    const call = { attemptId: attempt.id, provider: attempt.provider, kind: 'first_send_check' as const, outcome: lookup.kind, httpStatus: lookup.kind === 'error' ? lookup.httpStatus : 200, durationMs: lookup.durationMs, detail: summary };
    if (lookup.kind === 'error') {
      await this.calls.record(call);
      return { kind: 'unanswered', lastError: { reason: FIRST_SEND_CHECK_UNANSWERED, lookup: summary } };
    }
    this.logger.warn({ attemptId: attempt.id, chargeId: attempt.chargeId, provider: attempt.provider, found: lookup.charges.length }, 'a first send found its reference already at the provider');
    const unknown = await this.db.transaction(async (em) => {
      // Charge then attempt locked before the evidence row referencing the attempt (see lockChargeAndAttempt).
      await lockChargeAndAttempt(em, attempt.id);
      await this.calls.record(call, em);
      const evidence = { reason: 'found_before_first_send', firstSendCheck: summary };
      const duplicates = new Set(lookup.charges.map((c) => c.providerChargeId)).size > 1;
      if (!duplicates) {
        for (const c of lookup.charges) {
          const fact = { outcome: c.outcome, providerChargeId: c.providerChargeId, amountCents: c.amountCents, currency: c.currency };
          await this.facts.apply(em, attempt.id, fact, { cause: 'submit', actor, evidence });
        }
      }
      // Still pending: the payment found proves a request arrived, so this attempt is never sent; it is unknown.
      const moved = await this.transitions.apply({ attemptId: attempt.id, from: 'pending', to: 'unknown', cause: 'submit', actor, sendEnded: true, detail: evidence }, em);
      if (moved && duplicates) await openReviewItem(em, attempt.id, 'duplicate_provider_charges', evidence);
      return moved;
    });
    return { kind: 'found', unknown };
  }
}
