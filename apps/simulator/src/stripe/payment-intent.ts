import type { StripeIntentStatus } from '@app/gateways';
import { newStripeId } from '../ids.js';

/** Stripe's documented statuses: the adapter maps exactly these, so the fake answers no other. */
export type IntentStatus = StripeIntentStatus;

export const INTENT_STATUSES: readonly IntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
];

export interface PaymentError {
  type: 'card_error';
  code: 'card_declined' | 'authentication_required';
  decline_code: string;
  message: string;
  /** Absent when no charge was attempted: Stripe leaves the field out, never null. */
  charge?: string;
}

/** The PaymentIntent fields Stripe returns that this service reads or stores (provider-contracts.md §1). */
export interface StripePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: IntentStatus;
  last_payment_error: PaymentError | null;
  latest_charge: string | null;
  metadata: Record<string, string>;
  created: number;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic';
  confirmation_method: 'automatic';
  client_secret: string;
  next_action: null;
  livemode: false;
}

export interface CreateIntentParams {
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  confirm: boolean;
  metadata: Record<string, string>;
}

/** What confirming a payment method does, following Stripe's test cards plus one simulator-only method. */
export type ConfirmOutcome = { kind: 'succeeded' } | { kind: 'processing' } | { kind: 'declined'; declineCode: string };

const DECLINING_METHODS: Record<string, string> = {
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_insufficientFunds: 'insufficient_funds',
  // A card that asks for 3-D Secure: off-session, Stripe fails the confirm rather than wait for the customer.
  pm_card_authenticationRequired: 'authentication_required',
};
/** Not a Stripe test card: lets tests reach `processing` and finish it later through the control API. */
export const PROCESSING_METHOD = 'pm_sim_processing';

const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  authentication_required: 'Your card was declined. This transaction requires authentication.',
};

/** How a confirm ends for the request's payment method (a confirm without one is refused before this, as Stripe does). */
export function confirmOutcomeFor(params: CreateIntentParams, declineCustomers: readonly string[]): ConfirmOutcome {
  if (params.customer && declineCustomers.includes(params.customer)) return { kind: 'declined', declineCode: 'generic_decline' };
  const declineCode = params.paymentMethod ? DECLINING_METHODS[params.paymentMethod] : undefined;
  if (declineCode) return { kind: 'declined', declineCode };
  if (params.paymentMethod === PROCESSING_METHOD) return { kind: 'processing' };
  return { kind: 'succeeded' };
}

export function declineError(declineCode: string, chargeId: string | null): PaymentError {
  const message = DECLINE_MESSAGES[declineCode] ?? 'Your card was declined.';
  return { type: 'card_error', code: declineCode === 'authentication_required' ? 'authentication_required' : 'card_declined', decline_code: declineCode, message, ...(chargeId ? { charge: chargeId } : {}) };
}

export function newPaymentIntent(params: CreateIntentParams, nowMs: number): StripePaymentIntent {
  const id = newStripeId('pi');
  return {
    id,
    object: 'payment_intent',
    amount: params.amount,
    amount_capturable: 0,
    amount_received: 0,
    currency: params.currency,
    customer: params.customer,
    payment_method: params.paymentMethod,
    status: params.paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    last_payment_error: null,
    latest_charge: null,
    metadata: params.metadata,
    created: Math.floor(nowMs / 1000),
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    confirmation_method: 'automatic',
    client_secret: `${id}_secret_${newStripeId('cs').slice(3)}`,
    next_action: null,
    livemode: false,
  };
}

/** Moves an intent to a status the way Stripe would leave its fields. Mutates and returns it. */
export function moveIntentTo(
  intent: StripePaymentIntent,
  status: IntentStatus,
  nowMs: number,
  declineCode = 'generic_decline',
): StripePaymentIntent {
  const attemptsCharge = status !== 'requires_confirmation' && status !== 'canceled';
  if (attemptsCharge && !intent.latest_charge) intent.latest_charge = newStripeId('ch');
  intent.status = status;
  // Stripe clears last_payment_error on any later update; a new failure sets it again.
  intent.last_payment_error = status === 'requires_payment_method' ? declineError(declineCode, intent.latest_charge) : null;
  intent.amount_received = status === 'succeeded' ? intent.amount : 0;
  intent.amount_capturable = status === 'requires_capture' ? intent.amount : 0;
  if (status === 'canceled') {
    intent.canceled_at = Math.floor(nowMs / 1000);
    intent.cancellation_reason = 'requested_by_customer';
  }
  return intent;
}
