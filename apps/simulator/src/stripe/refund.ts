import { newStripeId } from '../ids.js';
import type { StripePaymentIntent } from './payment-intent.js';

export type RefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
export const REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'];

/** The Refund fields Stripe returns that this service reads or stores (provider-contracts.md §1). */
export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: RefundStatus;
  failure_reason: string | null;
  /** Set when a refund fails after its money left: the balance transaction that gave it back. */
  failure_balance_transaction?: string | null;
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface CreateRefundParams {
  intent: StripePaymentIntent;
  amount: number;
  reason: string | null;
  metadata: Record<string, string>;
}

export function newRefund(params: CreateRefundParams, status: RefundStatus, nowMs: number): StripeRefund {
  return {
    id: newStripeId('re'),
    object: 'refund',
    amount: params.amount,
    currency: params.intent.currency,
    payment_intent: params.intent.id,
    charge: params.intent.latest_charge,
    status,
    failure_reason: status === 'failed' ? 'declined' : null,
    reason: params.reason,
    metadata: params.metadata,
    created: Math.floor(nowMs / 1000),
  };
}

/** Refunds that hold money of the intent: succeeded, or still able to succeed. */
export function holdsMoney(refund: StripeRefund): boolean {
  return refund.status === 'succeeded' || refund.status === 'pending' || refund.status === 'requires_action';
}
