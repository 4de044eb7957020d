import { newStripeId } from '../ids.js';
import type { IntentStatus, StripePaymentIntent } from './payment-intent.js';
import type { StripeRefund } from './refund.js';

export const SIMULATED_API_VERSION = '2024-06-20';

export type StripeEventType =
  | 'payment_intent.created'
  | 'payment_intent.processing'
  | 'payment_intent.requires_action'
  | 'payment_intent.amount_capturable_updated'
  | 'payment_intent.succeeded'
  | 'payment_intent.payment_failed'
  | 'payment_intent.canceled';

export const EVENT_TYPES: readonly StripeEventType[] = [
  'payment_intent.created',
  'payment_intent.processing',
  'payment_intent.requires_action',
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
];

/** Events about refunds: the refund itself, and the charge whose refunded total changed. */
export type RefundEventType = 'refund.created' | 'refund.updated' | 'refund.failed' | 'charge.refunded';

/** The Charge fields a `charge.refunded` event carries that this service reads. */
export interface StripeChargeObject {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: StripeEventType | RefundEventType;
  data: { object: StripePaymentIntent | StripeRefund | StripeChargeObject };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

/** The request that caused an event; null for changes Stripe makes on its own (e.g. processing finishing). */
export interface EventOrigin {
  requestId: string | null;
  idempotencyKey: string | null;
}

const EVENT_FOR_STATUS: Partial<Record<IntentStatus, StripeEventType>> = {
  processing: 'payment_intent.processing',
  requires_action: 'payment_intent.requires_action',
  requires_capture: 'payment_intent.amount_capturable_updated',
  succeeded: 'payment_intent.succeeded',
  requires_payment_method: 'payment_intent.payment_failed',
  canceled: 'payment_intent.canceled',
};

/** The event announcing that an intent reached its current status, if Stripe sends one for it. */
export function eventTypeForStatus(intent: StripePaymentIntent): StripeEventType | null {
  // `requires_payment_method` without an error is a fresh intent, not a failure.
  if (intent.status === 'requires_payment_method' && !intent.last_payment_error) return null;
  return EVENT_FOR_STATUS[intent.status] ?? null;
}

/** An event carrying a snapshot of its object, so later changes never rewrite what was announced. */
export function buildEvent(
  type: StripeEventType | RefundEventType,
  object: StripePaymentIntent | StripeRefund | StripeChargeObject,
  origin: EventOrigin,
  nowMs: number,
): StripeEvent {
  return {
    id: newStripeId('evt'),
    object: 'event',
    api_version: SIMULATED_API_VERSION,
    created: Math.floor(nowMs / 1000),
    type,
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: origin.requestId, idempotency_key: origin.idempotencyKey },
  };
}

/** The charge behind an intent as `charge.refunded` shows it: its running refunded total. */
export function refundedCharge(intent: StripePaymentIntent, amountRefunded: number): StripeChargeObject {
  return {
    id: intent.latest_charge ?? intent.id.replace(/^pi_/, 'ch_'),
    object: 'charge',
    amount: intent.amount,
    amount_refunded: amountRefunded,
    refunded: amountRefunded >= intent.amount_received,
    currency: intent.currency,
    payment_intent: intent.id,
    metadata: intent.metadata,
  };
}
