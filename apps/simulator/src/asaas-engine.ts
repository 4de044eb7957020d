import { InvalidControlInput } from './control-input.js';
import { CreateRequestLog } from './create-request-log.js';
import type { FaultPlanner } from './fault-plan.js';
import type { HangTracker } from './hang-tracker.js';
import { ASAAS_EVENT_TYPES, asaasEventForStatus, buildAsaasEvent } from './asaas-events.js';
import type { AsaasEvent, AsaasEventType } from './asaas-events.js';
import { AsaasPaymentLedger } from './asaas-ledger.js';
import { ASAAS_SIM_STATUSES, newAsaasPayment } from './asaas-payment.js';
import type { AsaasPayment, AsaasPaymentStatus, CreatePaymentParams } from './asaas-payment.js';
import type { SimulatorConfig } from './simulator-config.js';
import type { SimulatorStats } from './simulator-stats.js';
import { WebhookSender } from './webhook-sender.js';
import type { WebhookDelivery, WebhookFormat } from './webhook-sender.js';

const FORGED_TOKEN = 'asaas-token-forged-by-simulator';

/** Asaas authenticates webhooks with the static token configured for them, in `asaas-access-token`. */
const ASAAS_WEBHOOK_FORMAT: WebhookFormat<AsaasEvent> = {
  describe: (event) => ({ eventId: event.id, type: event.event, intentId: event.payment.id }),
  headers: (_body, token, forged) => ({
    'Content-Type': 'application/json; charset=utf-8',
    'asaas-access-token': forged ? FORGED_TOKEN : token,
    'User-Agent': 'Asaas_Hmlg/3.0 charge-once-simulator',
  }),
};

/**
 * The simulated Asaas account: payments, their webhooks and the request log. It shares the fault plan,
 * hang tracker, counters and configuration with the Stripe side, so one set of knobs drives both.
 * There is no idempotency store on purpose: at Asaas a resent request is a second payment.
 */
export class AsaasEngine {
  readonly ledger = new AsaasPaymentLedger();
  readonly requestLog = new CreateRequestLog();
  readonly webhooks: WebhookSender<AsaasEvent>;

  constructor(
    readonly faults: FaultPlanner,
    readonly stats: SimulatorStats,
    readonly hangs: HangTracker,
    private readonly config: () => SimulatorConfig,
  ) {
    this.webhooks = new WebhookSender(() => this.config().asaasWebhook, stats, ASAAS_WEBHOOK_FORMAT);
  }

  get settings(): SimulatorConfig {
    return this.config();
  }

  createPayment(params: CreatePaymentParams): AsaasPayment {
    const now = Date.now();
    const payment = newAsaasPayment(params, now);
    this.ledger.add(payment, now);
    this.stats.countAsaasPaymentCreated(params.externalReference);
    const events = [buildAsaasEvent('PAYMENT_CREATED', payment, now)];
    const statusEvent = asaasEventForStatus(payment);
    if (statusEvent) events.push(buildAsaasEvent(statusEvent, payment, now));
    this.webhooks.emit(events);
    return payment;
  }

  /** Moves a payment (the payer paid a Pix, say) and announces it like Asaas would. */
  setPaymentStatus(paymentId: string, status: unknown): AsaasPayment {
    const payment = this.requirePayment(paymentId);
    if (!ASAAS_SIM_STATUSES.includes(status as AsaasPaymentStatus)) throw new InvalidControlInput(`unknown asaas status ${String(status)}`);
    payment.status = status as AsaasPaymentStatus;
    if (['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH'].includes(payment.status)) payment.paymentDate ??= new Date().toISOString().slice(0, 10);
    const type = asaasEventForStatus(payment);
    if (type) this.webhooks.emit([buildAsaasEvent(type, payment, Date.now())]);
    return payment;
  }

  /** One event about an existing payment, now, outside the knobs; `forged` carries the wrong token. */
  sendWebhook(eventType: unknown, paymentId: string, forged = false): Promise<WebhookDelivery> {
    if (!ASAAS_EVENT_TYPES.includes(eventType as AsaasEventType)) throw new InvalidControlInput(`unknown asaas event ${String(eventType)}`);
    return this.webhooks.sendNow(buildAsaasEvent(eventType as AsaasEventType, this.requirePayment(paymentId), Date.now()), forged);
  }

  payments(filter: { externalReference?: string; customer?: string } = {}): AsaasPayment[] {
    return structuredClone(this.ledger.find(filter));
  }

  reset(): void {
    this.ledger.clear();
    this.requestLog.clear();
    this.webhooks.reset();
  }

  close(): void {
    this.webhooks.close();
  }

  private requirePayment(paymentId: string): AsaasPayment {
    const payment = this.ledger.get(paymentId);
    if (!payment) throw new InvalidControlInput(`no such asaas payment: ${paymentId}`);
    return payment;
  }
}
