import { newStripeId } from './ids.js';
import type { IntentStatus, StripePaymentIntent } from './payment-intent.js';

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

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: StripeEventType;
  data: { object: StripePaymentIntent };
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

/** An event carrying a snapshot of the intent, so later changes never rewrite what was announced. */
export function buildEvent(type: StripeEventType, intent: StripePaymentIntent, origin: EventOrigin, nowMs: number): StripeEvent {
  return {
    id: newStripeId('evt'),
    object: 'event',
    api_version: SIMULATED_API_VERSION,
    created: Math.floor(nowMs / 1000),
    type,
    data: { object: structuredClone(intent) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: origin.requestId, idempotency_key: origin.idempotencyKey },
  };
}
