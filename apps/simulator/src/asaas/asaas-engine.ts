import { InvalidControlInput } from '../control-input.js';
import { CreateRequestLog } from '../create-request-log.js';
import type { FaultPlanner } from '../fault-plan.js';
import type { HangTracker } from '../hang-tracker.js';
import { asaasDay } from './asaas-calendar.js';
import { ASAAS_EVENT_TYPES, asaasEventForStatus, buildAsaasEvent } from './asaas-events.js';
import type { AsaasEvent, AsaasEventType } from './asaas-events.js';
import { AsaasPaymentStore } from './asaas-payments.store.js';
import { ASAAS_SIM_STATUSES, newAsaasPayment, stampPaymentDates } from './asaas-payment.js';
import type { AsaasPayment, AsaasPaymentStatus, AsaasRefund, CreatePaymentParams } from './asaas-payment.js';
import type { SimulatorConfig } from '../simulator-config.js';
import type { SimulatorStats } from '../simulator-stats.js';
import { WebhookSender } from '../webhook-sender.js';
import type { WebhookDelivery } from '../webhook-sender.js';
import { ASAAS_WEBHOOK_FORMAT } from './asaas-webhook.format.js';

export interface PlantAsaasPaymentInput {
  amountCents: number;
  /** `YYYY-MM-DD`: the day the money was received (a card's credit day). */
  paymentDate: string;
  /** A card payment, confirmed on `confirmedDate` (default: the payment date) and credited on `paymentDate`. */
  card?: { confirmedDate?: string };
  externalReference?: string;
  customer?: string;
}

/**
 * The simulated Asaas account: payments, their webhooks and the request log. It shares the fault plan,
 * hang tracker, counters and configuration with the Stripe side, so one set of knobs drives both.
 * There is no idempotency store on purpose: at Asaas a resent request is a second payment.
 */
export type AsaasMovementType = 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'PAYMENT_CUSTODY_BLOCK' | 'PAYMENT_CUSTODY_BLOCK_REVERSAL';

export interface AsaasBookedMovement {
  id: string;
  paymentId: string;
  type: AsaasMovementType;
  value: number;
  date: string;
}

export class AsaasEngine {
  readonly paymentStore = new AsaasPaymentStore();
  readonly requestLog = new CreateRequestLog();
  readonly webhooks: WebhookSender<AsaasEvent>;
  /** Each DONE refund's extrato day, by `paymentId#index`: kept off the refund, whose fields Asaas shows. */
  private readonly refundBookings = new Map<string, string>();
  /** The extrato day of a DONE refund's cancellation (Asaas gives the money back to the account), same key. */
  private readonly refundCancellations = new Map<string, string>();
  /** Extrato entries booked through the control API: chargebacks, their reversals, custody blocks and releases. */
  private readonly booked: AsaasBookedMovement[] = [];

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
    this.paymentStore.add(payment, now);
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
    // Paid after it was removed (a payment already on its way): Asaas holds it as received, no longer deleted.
    if (['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH'].includes(payment.status)) payment.deleted = false;
    stampPaymentDates(payment, new Date().toISOString().slice(0, 10));
    const type = asaasEventForStatus(payment);
    if (type) this.webhooks.emit([buildAsaasEvent(type, payment, Date.now())]);
    return payment;
  }

  /**
   * A payment as Asaas shows it today (by its clock, `asaasClockOffsetDays` ahead of ours): a boleto, Pix or card
   * invoice still PENDING after its due date is OVERDUE, announced once like Asaas's `PAYMENT_OVERDUE`.
   */
  current(payment: AsaasPayment): AsaasPayment {
    // Brasília's day, as the adapter dates a boleto due today: in UTC, one due today there read OVERDUE after 21:00.
    const today = asaasDay(Date.now() + this.settings.asaasClockOffsetDays * 86_400_000);
    if (payment.status === 'PENDING' && !payment.deleted && payment.dueDate < today) {
      payment.status = 'OVERDUE';
      this.webhooks.emit([buildAsaasEvent('PAYMENT_OVERDUE', payment, Date.now())]);
    }
    return payment;
  }

  /** `DELETE /v3/payments/{id}`: only a payment awaiting payment or overdue can be removed; its payer can no longer pay it. */
  deletePayment(payment: AsaasPayment): boolean {
    if (payment.deleted || !['PENDING', 'OVERDUE'].includes(this.current(payment).status)) return false;
    payment.deleted = true;
    this.webhooks.emit([buildAsaasEvent('PAYMENT_DELETED', payment, Date.now())]);
    return true;
  }

  /** Reais not yet refunded, in cents (refunds not CANCELLED count). */
  refundableCents(payment: AsaasPayment): number {
    const refunded = (payment.refunds ?? []).filter((r) => r.status !== 'CANCELLED').reduce((sum, r) => sum + Math.round(r.value * 100), 0);
    return Math.round(payment.value * 100) - refunded;
  }

  /**
   * `POST /v3/payments/{id}/refund`, already validated: DONE at once and announced like Asaas's events, or PENDING
   * (silent) while `asaasRefundsPending` holds it for the control API to settle.
   */
  refundPayment(payment: AsaasPayment, valueCents: number, description: string | null): AsaasRefund {
    const now = Date.now();
    const pending = this.settings.asaasRefundsPending;
    const refund: AsaasRefund = {
      dateCreated: this.settings.asaasRefundDateCreated ?? new Date(now).toISOString().replace('T', ' ').slice(0, 19),
      status: pending ? 'PENDING' : 'DONE',
      value: valueCents / 100,
      description,
      transactionReceiptUrl: `https://sandbox.asaas.com/comprovantes/${payment.id.slice(4)}${(payment.refunds ?? []).length}`,
    };
    payment.refunds = [...(payment.refunds ?? []), refund];
    if (!pending) this.refundDone(payment, payment.refunds.length - 1, refund.dateCreated.slice(0, 10), now);
    return refund;
  }

  /**
   * Settles a PENDING refund (the `index`th of its payment) as the bank would: DONE today, its extrato entry dated
   * `bookedOn` (default: today plus the booking delay), or CANCELLED, which moved no money. A DONE refund may be
   * CANCELLED too, as Asaas does after the fact: its money comes back, in an entry dated `bookedOn` (default today).
   */
  settleRefund(paymentId: string, index: number, status: unknown, bookedOn?: string): AsaasPayment {
    const payment = this.requirePayment(paymentId);
    const refund = payment.refunds?.[index];
    const cancellingDone = refund?.status === 'DONE' && status === 'CANCELLED';
    if (!refund || (refund.status !== 'PENDING' && !cancellingDone)) throw new InvalidControlInput(`payment ${paymentId} has no PENDING refund at ${index}`);
    if (bookedOn !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(bookedOn)) throw new InvalidControlInput('bookedOn must be YYYY-MM-DD');
    if (cancellingDone) {
      // Money already left: its reversal entry stays, and the cancellation is a credit on its own day.
      refund.status = 'CANCELLED';
      this.refundCancellations.set(`${paymentId}#${index}`, bookedOn ?? new Date().toISOString().slice(0, 10));
    } else if (status === 'CANCELLED') refund.status = 'CANCELLED';
    else if (status === 'DONE') this.refundDone(payment, index, new Date().toISOString().slice(0, 10), Date.now(), bookedOn);
    else throw new InvalidControlInput(`a refund settles DONE or CANCELLED, not ${String(status)}`);
    return payment;
  }

  /**
   * Books a money movement of a payment in the extrato (the payment's value, negative for what the provider takes
   * or holds), dated `on` (today by default). Statuses move separately (setPaymentStatus), as Asaas's do.
   */
  bookMovement(paymentId: string, type: AsaasMovementType, on = new Date().toISOString().slice(0, 10)): AsaasBookedMovement {
    const payment = this.requirePayment(paymentId);
    const takes = type === 'CHARGEBACK' || type === 'PAYMENT_CUSTODY_BLOCK';
    const movement = { id: `ftr_${paymentId}_${type.toLowerCase()}_${this.booked.length}`, paymentId, type, value: takes ? -payment.value : payment.value, date: on };
    this.booked.push(movement);
    return { ...movement };
  }

  bookedMovements(): AsaasBookedMovement[] {
    return this.booked.map((m) => ({ ...m }));
  }

  /** The day a DONE refund's extrato entry is dated; undefined for one not DONE. */
  refundBookedOn(paymentId: string, index: number): string | undefined {
    return this.refundBookings.get(`${paymentId}#${index}`);
  }

  /** The day the cancellation of a refund that was DONE is dated in the extrato; undefined for any other refund. */
  refundCancelledOn(paymentId: string, index: number): string | undefined {
    return this.refundCancellations.get(`${paymentId}#${index}`);
  }

  private refundDone(payment: AsaasPayment, index: number, doneOn: string, now: number, bookedOn?: string): void {
    const refunds = payment.refunds ?? [];
    refunds[index].status = 'DONE';
    const delayMs = this.settings.asaasRefundBookingDelayDays * 86_400_000;
    this.refundBookings.set(`${payment.id}#${index}`, bookedOn ?? new Date(Date.parse(`${doneOn}T00:00:00Z`) + delayMs).toISOString().slice(0, 10));
    const whole = this.refundableCents(payment) === 0 && refunds.every((r) => r.status !== 'PENDING');
    if (whole) payment.status = 'REFUNDED';
    this.webhooks.emit([buildAsaasEvent(whole ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED', payment, now)]);
  }

  /** One event about an existing payment, now, outside the knobs; `forged` carries the wrong token. */
  sendWebhook(eventType: unknown, paymentId: string, forged = false): Promise<WebhookDelivery> {
    if (!ASAAS_EVENT_TYPES.includes(eventType as AsaasEventType)) throw new InvalidControlInput(`unknown asaas event ${String(eventType)}`);
    return this.webhooks.sendNow(buildAsaasEvent(eventType as AsaasEventType, this.requirePayment(paymentId), Date.now()), forged);
  }

  /**
   * Payments received at Asaas with no create of ours behind them (or a second one under our reference),
   * dated into any day: what reconciliation must find. No webhooks: nobody told us.
   */
  plantPayments(inputs: PlantAsaasPaymentInput[]): AsaasPayment[] {
    return inputs.map((input) => {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new InvalidControlInput('amountCents must be a positive integer');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(input.paymentDate)) throw new InvalidControlInput('paymentDate must be YYYY-MM-DD');
      const value = input.amountCents / 100;
      if (input.card?.confirmedDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(input.card.confirmedDate)) throw new InvalidControlInput('card.confirmedDate must be YYYY-MM-DD');
      const payment = newAsaasPayment(
        { customer: input.customer ?? 'cus_planted', billingType: input.card ? 'CREDIT_CARD' : 'PIX', cardCharged: false, value, dueDate: input.paymentDate, description: null, externalReference: input.externalReference ?? null },
        Date.parse(`${input.paymentDate}T12:00:00Z`),
      );
      const confirmedDate = input.card?.confirmedDate ?? input.paymentDate;
      // A card was created when it was confirmed; its credit came later.
      Object.assign(payment, { status: 'RECEIVED', dateCreated: input.card ? confirmedDate : payment.dateCreated, confirmedDate, paymentDate: input.paymentDate, creditDate: input.card ? input.paymentDate : null });
      // Received on that day, so already past any list lag (even when the day is today).
      this.paymentStore.add(payment, Math.min(Date.now() - this.settings.asaasListLagMs, Date.parse(`${input.paymentDate}T12:00:00Z`)));
      return structuredClone(payment);
    });
  }

  payments(filter: { externalReference?: string; customer?: string } = {}): AsaasPayment[] {
    return structuredClone(this.paymentStore.find(filter).map((payment) => this.current(payment)));
  }

  reset(): void {
    this.paymentStore.clear();
    this.refundBookings.clear();
    this.booked.length = 0;
    this.requestLog.clear();
    this.webhooks.reset();
  }

  close(): void {
    this.webhooks.close();
  }

  private requirePayment(paymentId: string): AsaasPayment {
    const payment = this.paymentStore.get(paymentId);
    if (!payment) throw new InvalidControlInput(`no such asaas payment: ${paymentId}`);
    return payment;
  }
}
