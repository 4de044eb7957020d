import { newStripeId } from '../ids.js';

export const ASAAS_SIM_STATUSES = [
  'PENDING', 'AWAITING_RISK_ANALYSIS', 'OVERDUE', 'CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH',
  'DUNNING_REQUESTED', 'DUNNING_RECEIVED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS', 'REFUNDED',
  'CHARGEBACK_REQUESTED', 'CHARGEBACK_DISPUTE', 'AWAITING_CHARGEBACK_REVERSAL',
] as const;
export type AsaasPaymentStatus = (typeof ASAAS_SIM_STATUSES)[number];

/** The payment fields Asaas returns that this service reads or stores (provider-contracts.md §3). */
export interface AsaasPayment {
  object: 'payment';
  id: string;
  dateCreated: string;
  customer: string;
  /** Decimal reais, exactly as the request wrote them. */
  value: number;
  netValue: number;
  billingType: string;
  status: AsaasPaymentStatus;
  dueDate: string;
  /** The day the payment was confirmed: a card's is the day it was authorised. */
  confirmedDate: string | null;
  /**
   * The day it was paid. A card's comes only with its credit, about 30 days after it was confirmed: the reading
   * that is hard for a statement (PROVIDER-CONTRACT.md marks it [U]), so the simulator holds it.
   */
  paymentDate: string | null;
  creditDate: string | null;
  description: string | null;
  externalReference: string | null;
  invoiceUrl: string;
  deleted: boolean;
  /** Each refund of the payment (Asaas gives them no id); null until the first. */
  refunds: AsaasRefund[] | null;
}

/** One refund as Asaas lists it on its payment: `status` is PENDING, CANCELLED or DONE. */
export interface AsaasRefund {
  dateCreated: string;
  status: 'PENDING' | 'CANCELLED' | 'DONE';
  value: number;
  description: string | null;
  transactionReceiptUrl: string | null;
}

export interface CreatePaymentParams {
  customer: string;
  billingType: string;
  /** A card charged in the create call (a creditCardToken or card data came with it). */
  cardCharged: boolean;
  value: number;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
}

/**
 * The dates a status brings, set once: a card is confirmed, then paid and credited; Pix and boleto are
 * confirmed and paid at once (their credit is out of this simulator's reach).
 */
export function stampPaymentDates(payment: AsaasPayment, today: string): void {
  const card = payment.billingType === 'CREDIT_CARD';
  if (['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH'].includes(payment.status)) payment.confirmedDate ??= today;
  if (['RECEIVED', 'RECEIVED_IN_CASH'].includes(payment.status) || (!card && payment.status === 'CONFIRMED')) payment.paymentDate ??= today;
  if (card && payment.paymentDate !== null) payment.creditDate ??= payment.paymentDate;
}

/** Asaas ids look like `pay_080225913252`; any 12 characters will do here. */
export function newAsaasPaymentId(): string {
  return `pay_${newStripeId('x').slice(2, 14).toLowerCase()}`;
}

/**
 * A new payment. A card sent with its token is charged at once (CONFIRMED); a card charge without one, Pix and
 * boleto wait for the payer (PENDING) until the control API moves them, as a customer paying would.
 */
export function newAsaasPayment(params: CreatePaymentParams, nowMs: number): AsaasPayment {
  const id = newAsaasPaymentId();
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const charged = params.cardCharged;
  return {
    object: 'payment',
    id,
    dateCreated: today,
    customer: params.customer,
    value: params.value,
    netValue: params.value,
    billingType: params.billingType,
    status: charged ? 'CONFIRMED' : 'PENDING',
    dueDate: params.dueDate,
    confirmedDate: charged ? today : null,
    paymentDate: null,
    creditDate: null,
    description: params.description,
    externalReference: params.externalReference,
    invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
    deleted: false,
    refunds: null,
  };
}
