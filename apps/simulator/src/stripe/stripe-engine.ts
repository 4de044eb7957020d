import { InvalidControlInput } from '../control-input.js';
import { CreateRequestLog } from '../create-request-log.js';
import type { FaultPlanner } from '../fault-plan.js';
import type { HangTracker } from '../hang-tracker.js';
import type { SimulatorConfig } from '../simulator-config.js';
import type { SimulatorStats } from '../simulator-stats.js';
import { WebhookSender, type WebhookDelivery } from '../webhook-sender.js';
import { IdempotencyStore } from './idempotency-keys.store.js';
import { INTENT_STATUSES, confirmOutcomeFor, moveIntentTo, newPaymentIntent } from './payment-intent.js';
import type { CreateIntentParams, IntentStatus, StripePaymentIntent } from './payment-intent.js';
import { PaymentIntentStore } from './payment-intents.store.js';
import { REFUND_STATUSES, newRefund } from './refund.js';
import type { CreateRefundParams, RefundStatus, StripeRefund } from './refund.js';
import { RefundStore } from './refunds.store.js';
import { EVENT_TYPES, buildEvent, eventTypeForStatus, refundedCharge } from './stripe-events.js';
import type { EventOrigin, StripeEvent, StripeEventType } from './stripe-events.js';
import { StripeStatement } from './stripe-statement.js';
import { STRIPE_WEBHOOK_FORMAT } from './stripe-webhook.format.js';

const NO_ORIGIN: EventOrigin = { requestId: null, idempotencyKey: null };

/**
 * The simulated Stripe account: payment intents, refunds, the statement (balance transactions and report runs),
 * the idempotency keys, its webhooks and its request log, shared by the Stripe routes and the control API. The fault
 * plan, hang tracker, counters and configuration are the simulator's, shared with Asaas. Knows nothing about HTTP.
 */
export class StripeEngine {
  readonly intentStore = new PaymentIntentStore();
  readonly refundStore = new RefundStore();
  /** Balance transactions and report runs: what moved money, as the statement shows it. */
  readonly statement = new StripeStatement(this.intentStore);
  readonly idempotency = new IdempotencyStore();
  readonly requestLog = new CreateRequestLog();
  readonly webhooks: WebhookSender<StripeEvent>;

  constructor(
    readonly faults: FaultPlanner,
    readonly stats: SimulatorStats,
    readonly hangs: HangTracker,
    private readonly settings: () => SimulatorConfig,
  ) {
    this.webhooks = new WebhookSender(() => this.settings().webhook, stats, STRIPE_WEBHOOK_FORMAT);
  }

  get config(): SimulatorConfig {
    return this.settings();
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
        : confirmOutcomeFor(params, this.config.declineCustomers);
      if (outcome.kind === 'declined') moveIntentTo(intent, 'requires_payment_method', now, outcome.declineCode);
      else moveIntentTo(intent, outcome.kind, now);
    }
    this.intentStore.add(intent, now);
    this.statement.recordChargeIfSucceeded(intent);
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
    this.refundStore.add(refund);
    this.stats.countRefundCreated(origin.idempotencyKey);
    if (refund.status === 'succeeded') this.statement.recordRefund(refund, now);
    const events = [buildEvent('refund.created', refund, origin, now)];
    if (refund.status === 'succeeded') events.push(buildEvent('charge.refunded', refundedCharge(params.intent, this.refundedOf(params.intent.id)), origin, now));
    this.webhooks.emit(events);
    return refund;
  }

  /**
   * Moves a refund later on (pending → succeeded, say) and announces it with `refund.updated`. `created` (unix
   * seconds) backdates or postdates the balance transaction it books (a refund line, or its `refund_failure`).
   */
  setRefundStatus(refundId: string, status: unknown, created?: number): StripeRefund {
    const refund = this.refundStore.get(refundId);
    if (!refund) throw new InvalidControlInput(`no such refund: ${refundId}`);
    if (!REFUND_STATUSES.includes(status as RefundStatus)) throw new InvalidControlInput(`unknown refund status ${String(status)}`);
    if (created !== undefined && !Number.isInteger(created)) throw new InvalidControlInput('created must be unix seconds');
    const wasSucceeded = refund.status === 'succeeded';
    refund.status = status as RefundStatus;
    const now = Date.now();
    const bookedAt = created === undefined ? now : created * 1000;
    if (!wasSucceeded && refund.status === 'succeeded') this.statement.recordRefund(refund, bookedAt);
    if (wasSucceeded && refund.status === 'failed') refund.failure_balance_transaction = this.statement.recordRefundFailure(refund, bookedAt);
    const events = [buildEvent(refund.status === 'failed' ? 'refund.failed' : 'refund.updated', refund, NO_ORIGIN, now)];
    const intent = this.intentStore.get(refund.payment_intent);
    if (intent && refund.status === 'succeeded') events.push(buildEvent('charge.refunded', refundedCharge(intent, this.refundedOf(intent.id)), NO_ORIGIN, now));
    this.webhooks.emit(events);
    return refund;
  }

  refunds(filter: { paymentIntentId?: string; refundAttemptId?: string } = {}): StripeRefund[] {
    return structuredClone(
      this.refundStore.find(
        (r) =>
          (filter.paymentIntentId === undefined || r.payment_intent === filter.paymentIntentId) &&
          (filter.refundAttemptId === undefined || r.metadata.refund_attempt_id === filter.refundAttemptId),
      ),
    );
  }

  /** What an intent has refunded: its succeeded refunds. */
  refundedOf(intentId: string): number {
    return this.refundStore.find((r) => r.payment_intent === intentId && r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
  }

  /** Moves an intent later on (processing → succeeded, say) and announces it like Stripe would. */
  setIntentStatus(intentId: string, status: unknown): StripePaymentIntent {
    const intent = this.requireIntent(intentId);
    if (!INTENT_STATUSES.includes(status as IntentStatus)) throw new InvalidControlInput(`unknown status ${String(status)}`);
    // As at Stripe, an intent that succeeded or was canceled stays so: a later fact is a refund or a dispute.
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw new InvalidControlInput(`intent ${intentId} is ${intent.status}, which is final: it cannot become ${String(status)}`);
    }
    moveIntentTo(intent, status as IntentStatus, Date.now());
    this.statement.recordChargeIfSucceeded(intent);
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
      this.intentStore.find(
        (intent) =>
          (filter.attemptId === undefined || intent.metadata.attempt_id === filter.attemptId) &&
          (filter.customerId === undefined || intent.customer === filter.customerId),
      ),
    );
  }

  /** What Stripe does to keys past their lifetime: every object stays, every key is forgotten. */
  pruneIdempotencyKeys(): number {
    return this.idempotency.prune();
  }

  /** Forgets every object, key, request and pending webhook. */
  reset(): void {
    this.intentStore.clear();
    this.refundStore.clear();
    this.statement.clear();
    this.idempotency.clear();
    this.requestLog.clear();
    this.webhooks.reset();
  }

  close(): void {
    this.webhooks.close();
  }

  private requireIntent(intentId: string): StripePaymentIntent {
    const intent = this.intentStore.get(intentId);
    if (!intent) throw new InvalidControlInput(`no such payment intent: ${intentId}`);
    return intent;
  }
}

function requireEventType(value: unknown): StripeEventType {
  if (!EVENT_TYPES.includes(value as StripeEventType)) throw new InvalidControlInput(`unknown event type ${String(value)}`);
  return value as StripeEventType;
}
