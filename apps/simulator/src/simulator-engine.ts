import { AsaasEngine } from './asaas-engine.js';
import { BalanceLedger } from './balance-ledger.js';
import { InvalidControlInput } from './control-input.js';
import { newStripeId } from './ids.js';
import { ReportRunStore } from './report-runs.js';
import { CreateRequestLog } from './create-request-log.js';
import { FaultPlanner } from './fault-plan.js';
import { HangTracker } from './hang-tracker.js';
import { IdempotencyStore } from './idempotency-store.js';
import { PaymentIntentLedger } from './ledger.js';
import { INTENT_STATUSES, confirmOutcomeFor, moveIntentTo, newPaymentIntent } from './payment-intent.js';
import type { CreateIntentParams, IntentStatus, StripePaymentIntent } from './payment-intent.js';
import { applyConfigPatch } from './simulator-config.js';
import type { SimulatorConfig } from './simulator-config.js';
import { SimulatorStats } from './simulator-stats.js';
import { RefundLedger } from './refund-ledger.js';
import { REFUND_STATUSES, newRefund } from './refund.js';
import type { CreateRefundParams, RefundStatus, StripeRefund } from './refund.js';
import { EVENT_TYPES, buildEvent, eventTypeForStatus, refundedCharge } from './stripe-events.js';
import type { EventOrigin, StripeEventType } from './stripe-events.js';
import { STRIPE_WEBHOOK_FORMAT, WebhookSender } from './webhook-sender.js';
import type { WebhookDelivery } from './webhook-sender.js';

const NO_ORIGIN: EventOrigin = { requestId: null, idempotencyKey: null };

/**
 * The simulated provider's state and the operations on it, shared by the Stripe routes and the control
 * API. Knows nothing about HTTP.
 */
export class SimulatorEngine {
  readonly ledger = new PaymentIntentLedger();
  readonly refundLedger = new RefundLedger();
  /** The statement: balance changes indexed by day, for balance transactions and report files. */
  readonly balance = new BalanceLedger();
  readonly reportRuns = new ReportRunStore();
  readonly idempotency = new IdempotencyStore();
  readonly faults = new FaultPlanner();
  readonly stats = new SimulatorStats();
  readonly requestLog = new CreateRequestLog();
  readonly hangs = new HangTracker();
  readonly webhooks: WebhookSender;
  /** The Asaas side: its own payments and webhooks, the same faults, counters and configuration. */
  readonly asaas: AsaasEngine;
  private current: SimulatorConfig;

  constructor(private readonly initialConfig: SimulatorConfig) {
    this.current = initialConfig;
    this.webhooks = new WebhookSender(() => this.current.webhook, this.stats, STRIPE_WEBHOOK_FORMAT);
    this.asaas = new AsaasEngine(this.faults, this.stats, this.hangs, () => this.current);
  }

  get config(): SimulatorConfig {
    return this.current;
  }

  configure(patch: unknown): SimulatorConfig {
    this.current = applyConfigPatch(this.current, patch);
    return this.current;
  }

  /**
   * Creates an intent and, when asked to confirm, charges it: a declined confirmation leaves it in
   * `requires_payment_method` with `last_payment_error`, as Stripe does. `forceDecline` is the decline fault.
   */
  createIntent(params: CreateIntentParams, origin: EventOrigin, forceDecline = false): StripePaymentIntent {
    const now = Date.now();
    const intent = newPaymentIntent(params, now);
    if (params.confirm) {
      const outcome = forceDecline
        ? { kind: 'declined' as const, declineCode: 'generic_decline' }
        : confirmOutcomeFor(params, this.current.declineCustomers);
      if (outcome.kind === 'declined') moveIntentTo(intent, 'requires_payment_method', now, outcome.declineCode);
      else moveIntentTo(intent, outcome.kind, now);
    }
    this.ledger.add(intent, now);
    this.recordChargeIfSucceeded(intent);
    this.stats.countIntentCreated(origin.idempotencyKey);
    const events = [buildEvent('payment_intent.created', intent, origin, now)];
    const statusEvent = eventTypeForStatus(intent);
    if (statusEvent) events.push(buildEvent(statusEvent, intent, origin, now));
    this.webhooks.emit(events);
    return intent;
  }

  /**
   * Creates a refund of a succeeded intent (validated by the caller): `succeeded` at once, or `failed` when the
   * decline fault strikes. Announces `refund.created` and, when money moved, `charge.refunded` with the total.
   */
  createRefund(params: CreateRefundParams, origin: EventOrigin, fail = false): StripeRefund {
    const now = Date.now();
    const refund = newRefund(params, fail ? 'failed' : 'succeeded', now);
    this.refundLedger.add(refund);
    this.stats.countRefundCreated(origin.idempotencyKey);
    if (refund.status === 'succeeded') this.recordRefundLine(refund, now);
    const events = [buildEvent('refund.created', refund, origin, now)];
    if (refund.status === 'succeeded') events.push(buildEvent('charge.refunded', refundedCharge(params.intent, this.refundedOf(params.intent.id)), origin, now));
    this.webhooks.emit(events);
    return refund;
  }

  /** Moves a refund later on (pending → succeeded, say) and announces it with `refund.updated`. */
  setRefundStatus(refundId: string, status: unknown): StripeRefund {
    const refund = this.refundLedger.get(refundId);
    if (!refund) throw new InvalidControlInput(`no such refund: ${refundId}`);
    if (!REFUND_STATUSES.includes(status as RefundStatus)) throw new InvalidControlInput(`unknown refund status ${String(status)}`);
    const wasSucceeded = refund.status === 'succeeded';
    refund.status = status as RefundStatus;
    const now = Date.now();
    if (!wasSucceeded && refund.status === 'succeeded') this.recordRefundLine(refund, now);
    const events = [buildEvent(refund.status === 'failed' ? 'refund.failed' : 'refund.updated', refund, NO_ORIGIN, now)];
    const intent = this.ledger.get(refund.payment_intent);
    if (intent && refund.status === 'succeeded') events.push(buildEvent('charge.refunded', refundedCharge(intent, this.refundedOf(intent.id)), NO_ORIGIN, now));
    this.webhooks.emit(events);
    return refund;
  }

  refunds(filter: { paymentIntentId?: string; refundAttemptId?: string } = {}): StripeRefund[] {
    return structuredClone(
      this.refundLedger.find(
        (r) =>
          (filter.paymentIntentId === undefined || r.payment_intent === filter.paymentIntentId) &&
          (filter.refundAttemptId === undefined || r.metadata.refund_attempt_id === filter.refundAttemptId),
      ),
    );
  }

  /** What an intent has refunded: its succeeded refunds. */
  refundedOf(intentId: string): number {
    return this.refundLedger.find((r) => r.payment_intent === intentId && r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
  }

  /** Moves an intent later on (processing → succeeded, say) and announces it like Stripe would. */
  setIntentStatus(intentId: string, status: unknown): StripePaymentIntent {
    const intent = this.requireIntent(intentId);
    if (!INTENT_STATUSES.includes(status as IntentStatus)) throw new InvalidControlInput(`unknown status ${String(status)}`);
    moveIntentTo(intent, status as IntentStatus, Date.now());
    this.recordChargeIfSucceeded(intent);
    const type = eventTypeForStatus(intent);
    if (type) this.webhooks.emit([buildEvent(type, intent, NO_ORIGIN, Date.now())]);
    return intent;
  }

  /** Sends one correctly signed event about an existing intent, now, ignoring delay/drop/duplicates. */
  sendWebhook(eventType: unknown, intentId: string): Promise<WebhookDelivery> {
    const intent = this.requireIntent(intentId);
    return this.webhooks.sendNow(buildEvent(requireEventType(eventType), intent, NO_ORIGIN, Date.now()));
  }

  /**
   * Sends an event signed with the wrong secret. It names the latest intent of `attemptId` when there is
   * one (the most tempting forgery), otherwise a made-up intent.
   */
  forgeWebhook(eventType: unknown, attemptId?: string): Promise<WebhookDelivery> {
    const type = requireEventType(eventType);
    const known = attemptId ? this.intents({ attemptId }).at(-1) : undefined;
    const params = { amount: 100, currency: 'usd', customer: null, paymentMethod: null, confirm: false };
    const intent = known ?? newPaymentIntent({ ...params, metadata: attemptId ? { attempt_id: attemptId } : {} }, Date.now());
    return this.webhooks.sendNow(buildEvent(type, intent, NO_ORIGIN, Date.now()), true);
  }

  intents(filter: { attemptId?: string; customerId?: string } = {}): StripePaymentIntent[] {
    return structuredClone(
      this.ledger.find(
        (intent) =>
          (filter.attemptId === undefined || intent.metadata.attempt_id === filter.attemptId) &&
          (filter.customerId === undefined || intent.customer === filter.customerId),
      ),
    );
  }

  /**
   * Money taken at the provider that our service may never have recorded: a succeeded intent with its charge
   * line, `created` backdated into any day. `recordIntent: false` keeps only the statement line (bulk
   * benchmark days hold a million of them without a PaymentIntent object each).
   */
  plantCharge(input: PlantChargeInput): { paymentIntentId: string; balanceTransactionId: string } {
    const created = input.created ?? Math.floor(Date.now() / 1000);
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new InvalidControlInput('amount must be a positive integer');
    if (!Number.isInteger(created)) throw new InvalidControlInput('created must be unix seconds');
    const metadata = input.metadata ?? {};
    let paymentIntentId = input.paymentIntentId ?? newStripeId('pi');
    let chargeId = this.balance.newId('ch');
    if (input.recordIntent !== false) {
      const params = { amount: input.amount, currency: input.currency ?? 'usd', customer: input.customer ?? null, paymentMethod: 'pm_card_visa', confirm: true, metadata };
      const intent = moveIntentTo(newPaymentIntent(params, created * 1000), 'succeeded', created * 1000);
      paymentIntentId = intent.id;
      chargeId = intent.latest_charge!;
      this.ledger.add(intent, created * 1000);
    }
    const entry = this.balance.add({
      id: this.balance.newId('txn'), created, type: 'charge', category: 'charge', amount: input.amount, currency: input.currency ?? 'usd',
      sourceId: chargeId, chargeId, paymentIntentId, customer: input.customer ?? null, metadata,
    });
    return { paymentIntentId, balanceTransactionId: entry.id };
  }

  /** Money that went back is in the statement, as Stripe's refund balance transaction. */
  private recordRefundLine(refund: StripeRefund, now: number): void {
    if (this.balance.chargeOf(refund.payment_intent)) this.addMovement(refund.payment_intent, 'refund', { amount: refund.amount, created: Math.floor(now / 1000), sourceId: refund.id, metadata: refund.metadata });
  }

  /** A refund or dispute of a charged intent: a negative statement line, `created` backdatable. */
  addMovement(intentId: string, kind: 'refund' | 'dispute', input: { amount?: number; created?: number; sourceId?: string; metadata?: Record<string, string> } = {}): { balanceTransactionId: string } {
    const charge = this.balance.chargeOf(intentId);
    if (!charge) throw new InvalidControlInput(`no charge for payment intent ${intentId}`);
    const amount = input.amount ?? charge.amount;
    if (!Number.isInteger(amount) || amount <= 0) throw new InvalidControlInput('amount must be a positive integer');
    const entry = this.balance.add({
      ...charge,
      id: this.balance.newId('txn'),
      created: input.created ?? Math.floor(Date.now() / 1000),
      type: kind === 'refund' ? 'refund' : 'adjustment',
      category: kind,
      amount: -amount,
      sourceId: input.sourceId ?? this.balance.newId(kind === 'refund' ? 're' : 'du'),
      sourceMetadata: input.metadata,
    });
    return { balanceTransactionId: entry.id };
  }

  /** Forgets everything and returns to the configuration the simulator was started with. */
  reset(): void {
    this.hangs.releaseAll();
    this.ledger.clear();
    this.refundLedger.clear();
    this.balance.clear();
    this.reportRuns.clear();
    this.idempotency.clear();
    this.faults.clear();
    this.stats.reset();
    this.requestLog.clear();
    this.webhooks.reset();
    this.asaas.reset();
    this.current = this.initialConfig;
  }

  close(): void {
    this.hangs.releaseAll();
    this.webhooks.close();
    this.asaas.close();
  }

  /** A succeeded intent moves money once: its charge line is written the first time it succeeds. */
  private recordChargeIfSucceeded(intent: StripePaymentIntent): void {
    if (intent.status !== 'succeeded' || this.balance.chargeOf(intent.id) || !intent.latest_charge) return;
    this.balance.add({
      id: this.balance.newId('txn'), created: Math.floor(Date.now() / 1000), type: 'charge', category: 'charge', amount: intent.amount,
      currency: intent.currency, sourceId: intent.latest_charge, chargeId: intent.latest_charge, paymentIntentId: intent.id,
      customer: intent.customer, metadata: intent.metadata,
    });
  }

  private requireIntent(intentId: string): StripePaymentIntent {
    const intent = this.ledger.get(intentId);
    if (!intent) throw new InvalidControlInput(`no such payment intent: ${intentId}`);
    return intent;
  }
}

function requireEventType(value: unknown): StripeEventType {
  if (!EVENT_TYPES.includes(value as StripeEventType)) throw new InvalidControlInput(`unknown event type ${String(value)}`);
  return value as StripeEventType;
}

export interface PlantChargeInput {
  amount: number;
  currency?: string;
  /** Unix seconds; defaults to now. */
  created?: number;
  metadata?: Record<string, string>;
  customer?: string;
  /** Only with `recordIntent: false`; otherwise the intent gets a fresh id. */
  paymentIntentId?: string;
  recordIntent?: boolean;
}
