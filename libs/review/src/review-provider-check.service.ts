import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderCallRecorder, loadAttemptTarget, lookupAtProvider, type AttemptTarget } from '@app/attempts';
import { AppConfig } from '@app/config';
import { GatewayRegistry, summariseLookup, summariseRetrieve, type RetrieveResult } from '@app/gateways';
import { msInterval, type AttemptEntity } from '@app/database';
import type { AttemptItemRow } from './review-item.view.js';
import { mayProveAbsence, verifyAbsence, verifyNamedCharge, type Verdict } from './rules/review-decision-rules.js';
import { ReviewProviderEvidenceError, ReviewRefundUnprovenError } from './review.errors.js';

export interface CheckSubject {
  reviewItemId: string;
  attemptId: string;
  /** Null for a payout's attempt. */
  chargeId: string | null;
  /** Null for a payout's attempt. */
  customerId: string | null;
  provider: string;
  amountCents: number;
  currency: string;
  attemptCreatedAt: Date;
  attemptProviderChargeId: string | null;
}

/** The attempt a decision is about, as the provider check needs it: the item's row and the attempt's own record. */
export function checkSubjectOf(row: AttemptItemRow, attempt: Pick<AttemptEntity, 'createdAt' | 'providerRef'>): CheckSubject {
  return {
    reviewItemId: row.id,
    attemptId: row.attempt_id,
    chargeId: row.charge_id,
    customerId: row.customer_id,
    provider: row.provider,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    attemptCreatedAt: attempt.createdAt,
    attemptProviderChargeId: attempt.providerRef,
  };
}

/** What the provider said at decision time, kept with the decision and in the audit trail. */
export interface ProviderEvidence extends Record<string, unknown> {
  check: 'retrieve_by_id' | 'consistent_lookup';
  /** Database time just before the query left: proves it came after the grace period. */
  queriedAt: string;
}

/**
 * Asks the provider, at decision time and outside any transaction, for the fact a decision rests on, records
 * the call as evidence on the attempt (whatever it answered), and refuses the decision when the fact is not
 * there. Never creates anything at the provider.
 */
@Injectable()
export class ReviewProviderCheck {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly calls: ProviderCallRecorder,
    private readonly config: AppConfig,
  ) {}

  /** `succeeded`: the named provider charge exists, is ours, for our money, and succeeded. */
  async verifySucceeded(subject: CheckSubject, providerChargeId: string, actor: string): Promise<ProviderEvidence> {
    const queriedAt = await this.dbNow();
    const target = await this.target(subject.attemptId);
    const result = await this.retrieve(target, providerChargeId);
    const evidence: ProviderEvidence = { check: 'retrieve_by_id', queriedAt, providerChargeId, result: summariseRetrieve(result) };
    await this.record(subject, actor, 'review_succeeded', result.kind, result.kind === 'error' ? result.httpStatus : result.kind === 'not_found' ? 404 : 200, result.durationMs, evidence);
    // The money to match is what the attempt realises: the charge's amount, or the refund's.
    const verdict = verifyNamedCharge(result, providerChargeId, { ...subject, ...target.expected });
    return this.settle('succeeded', verdict, evidence);
  }

  /**
   * `refund_needed`: the named provider charge exists, is captured, and carries a reference of this very charge
   * (one of its attempts), so a person can only ever give back money this charge took. Returns what the provider
   * holds, whose amount becomes the proposal's: never an amount a person typed.
   */
  async verifyRefundable(subject: CheckSubject, providerChargeId: string, actor: string): Promise<{ evidence: ProviderEvidence; amountCents: number; currency: string }> {
    const queriedAt = await this.dbNow();
    const result = await this.gateways.get(subject.provider).retrieveCharge(providerChargeId);
    const evidence: ProviderEvidence = { check: 'retrieve_by_id', queriedAt, providerChargeId, result: summariseRetrieve(result) };
    await this.record(subject, actor, 'review_refund_needed', result.kind, result.kind === 'error' ? result.httpStatus : result.kind === 'not_found' ? 404 : 200, result.durationMs, evidence);
    const refuse = (why: string) => new ReviewRefundUnprovenError(providerChargeId, why, evidence);
    if (result.kind === 'error') throw refuse(`the provider could not be asked for it: ${result.message}`);
    if (result.kind === 'not_found') throw refuse('the provider has no such charge');
    if (result.charge.outcome !== 'succeeded') throw refuse(`the provider holds it as ${result.charge.outcome}, not captured: no money to give back`);
    const [ours] = subject.chargeId && result.charge.attemptId
      ? await this.db.query<Array<{ id: string }>>(`SELECT id FROM attempts WHERE id::text = $1 AND charge_id = $2`, [result.charge.attemptId, subject.chargeId])
      : [];
    if (!ours) throw refuse(`it carries no reference of charge ${subject.chargeId} (reference ${result.charge.attemptId ?? 'none'})`);
    return { evidence, amountCents: result.charge.amountCents, currency: result.charge.currency };
  }

  /**
   * `failed`: a strongly consistent lookup, made after the grace period (measured with the database clock
   * from the attempt's last send), finds nothing under our reference.
   */
  async verifyFailed(subject: CheckSubject, actor: string): Promise<ProviderEvidence> {
    const gateway = this.gateways.forAttempt(subject.provider);
    const capable = mayProveAbsence(gateway.capabilities.lookupByReference);
    if (!capable.ok) throw new ReviewProviderEvidenceError('failed', capable.why, { provider: subject.provider, lookupByReference: gateway.capabilities.lookupByReference });
    const grace = await this.grace(subject.attemptId);
    if (!grace.passed) {
      const why = `the provider may still be executing the last request (sent ${grace.lastSentAt}); a "not found" is trusted only after ${grace.graceEndsAt}, in ${Math.ceil(grace.remainingMs / 1000)} s`;
      throw new ReviewProviderEvidenceError('failed', why, { lastSentAt: grace.lastSentAt, graceEndsAt: grace.graceEndsAt, remainingMs: grace.remainingMs });
    }
    // The same lookup the resolver makes for this kind of attempt (payment intents, or the charge's refunds).
    const lookup = await lookupAtProvider(gateway, await this.target(subject.attemptId));
    const evidence: ProviderEvidence = { check: 'consistent_lookup', queriedAt: grace.now, lastSentAt: grace.lastSentAt, graceEndsAt: grace.graceEndsAt, result: summariseLookup(lookup) };
    await this.record(subject, actor, 'review_failed', lookup.kind, lookup.kind === 'error' ? lookup.httpStatus : 200, lookup.durationMs, evidence);
    return this.settle('failed', verifyAbsence(lookup), evidence);
  }

  private async target(attemptId: string): Promise<AttemptTarget> {
    const target = await loadAttemptTarget(this.db.manager, attemptId);
    if (!target) throw new ReviewProviderEvidenceError('succeeded', `attempt ${attemptId} does not exist`, { attemptId });
    return target;
  }

  /** A charge is retrieved by its id; a refund is found among the refunded charge's refunds (a consistent list). */
  private async retrieve(target: AttemptTarget, providerId: string): Promise<RetrieveResult> {
    const gateway = this.gateways.forAttempt(target.provider);
    if (target.operation === 'charge') return this.gateways.get(target.provider).retrieveCharge(providerId);
    const lookup = await lookupAtProvider(gateway, { ...target, providerChargeId: null });
    if (lookup.kind === 'error') return lookup;
    const found = lookup.kind === 'found' ? lookup.charges.find((c) => c.providerChargeId === providerId) : undefined;
    return found ? { kind: 'found', charge: found, durationMs: lookup.durationMs } : { kind: 'not_found', durationMs: lookup.durationMs };
  }

  private async grace(attemptId: string): Promise<{ passed: boolean; now: string; lastSentAt: string; graceEndsAt: string; remainingMs: number }> {
    const [row] = await this.db.query<Array<{ passed: boolean; now: Date; last_sent_at: Date; grace_ends_at: Date; remaining_ms: number }>>(
      `SELECT now() >= ends AS passed, now(), sent AS last_sent_at, ends AS grace_ends_at,
              greatest(0, extract(epoch FROM ends - now()) * 1000)::float8 AS remaining_ms
         FROM (SELECT coalesce(last_send_ended_at, last_sent_at, created_at) AS sent,
                      coalesce(last_send_ended_at, last_sent_at, created_at) + ${msInterval('$2')} AS ends
                 FROM attempts WHERE id = $1) g`,
      [attemptId, this.config.CONSISTENT_LOOKUP_GRACE_MS],
    );
    return {
      passed: row.passed,
      now: row.now.toISOString(),
      lastSentAt: row.last_sent_at.toISOString(),
      graceEndsAt: row.grace_ends_at.toISOString(),
      remainingMs: row.remaining_ms,
    };
  }

  private async dbNow(): Promise<string> {
    const [row] = await this.db.query<Array<{ now: Date }>>(`SELECT now()`);
    return row.now.toISOString();
  }

  private async record(subject: CheckSubject, actor: string, purpose: string, outcome: string, httpStatus: number | null, durationMs: number, evidence: ProviderEvidence): Promise<void> {
    await this.calls.record({
      attemptId: subject.attemptId,
      provider: subject.provider,
      kind: 'lookup',
      outcome,
      httpStatus,
      durationMs,
      detail: { purpose, reviewItemId: subject.reviewItemId, actor, ...evidence },
    });
  }

  private settle(action: 'succeeded' | 'failed', verdict: Verdict, evidence: ProviderEvidence): ProviderEvidence {
    if (!verdict.ok) throw new ReviewProviderEvidenceError(action, verdict.why, evidence);
    return evidence;
  }
}
