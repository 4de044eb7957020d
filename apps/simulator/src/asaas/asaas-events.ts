import { newStripeId } from '../ids.js';
import type { AsaasPayment, AsaasPaymentStatus } from './asaas-payment.js';

export const ASAAS_EVENT_TYPES = [
  'PAYMENT_CREATED', 'PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED', 'PAYMENT_OVERDUE', 'PAYMENT_DELETED',
  'PAYMENT_REFUNDED', 'PAYMENT_PARTIALLY_REFUNDED', 'PAYMENT_AWAITING_RISK_ANALYSIS', 'PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_UPDATED',
  'PAYMENT_DUNNING_REQUESTED', 'PAYMENT_DUNNING_RECEIVED', 'PAYMENT_REFUND_IN_PROGRESS', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL',
] as const;
export type AsaasEventType = (typeof ASAAS_EVENT_TYPES)[number];

export interface AsaasEvent {
  id: string;
  event: AsaasEventType;
  dateCreated: string;
  payment: AsaasPayment;
}

const EVENT_FOR_STATUS: Partial<Record<AsaasPaymentStatus, AsaasEventType>> = {
  CONFIRMED: 'PAYMENT_CONFIRMED',
  RECEIVED: 'PAYMENT_RECEIVED',
  RECEIVED_IN_CASH: 'PAYMENT_RECEIVED',
  OVERDUE: 'PAYMENT_OVERDUE',
  REFUNDED: 'PAYMENT_REFUNDED',
  AWAITING_RISK_ANALYSIS: 'PAYMENT_AWAITING_RISK_ANALYSIS',
  CHARGEBACK_REQUESTED: 'PAYMENT_CHARGEBACK_REQUESTED',
  DUNNING_REQUESTED: 'PAYMENT_DUNNING_REQUESTED',
  DUNNING_RECEIVED: 'PAYMENT_DUNNING_RECEIVED',
  REFUND_IN_PROGRESS: 'PAYMENT_REFUND_IN_PROGRESS',
  CHARGEBACK_DISPUTE: 'PAYMENT_CHARGEBACK_DISPUTE',
  AWAITING_CHARGEBACK_REVERSAL: 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL',
};

export function asaasEventForStatus(payment: AsaasPayment): AsaasEventType | null {
  if (payment.deleted) return 'PAYMENT_DELETED';
  return EVENT_FOR_STATUS[payment.status] ?? null;
}

/** An event carrying a snapshot of the payment, so later changes never rewrite what was announced. */
export function buildAsaasEvent(type: AsaasEventType, payment: AsaasPayment, nowMs: number): AsaasEvent {
  return {
    id: `evt_${newStripeId('x').slice(2, 26).toLowerCase()}&${Math.floor(nowMs / 1000)}`,
    event: type,
    dateCreated: new Date(nowMs).toISOString().replace('T', ' ').slice(0, 19),
    payment: structuredClone(payment),
  };
}
