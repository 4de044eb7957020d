import type Stripe from 'stripe';
import { isRecord } from '@app/common';
import type { GatewayCallResult, ProviderError } from '../gateway-call.result.js';
import { toCreateCallResult } from '../http/create-response.reading.js';
import type { ProviderCharge } from '../provider-lookup.result.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { mapStripeIntentStatus } from './stripe-status.js';
import { wire, type WirePaymentIntent } from './stripe-wire.js';

/** The PaymentIntent fields the adapter reads; everything else is kept only inside `raw`/`body`. */
export interface StripeIntentView {
  id: string;
  status: unknown;
  amount: number;
  currency: string;
  metadata: Record<string, unknown>;
  hasLastPaymentError: boolean;
}

/** The fields every Stripe money object (payment intent, refund) carries, when `value` is one of `kind`. */
export function readStripeObject(value: unknown, kind: 'payment_intent' | 'refund'): (Omit<StripeIntentView, 'hasLastPaymentError'> & { raw: Record<string, unknown> }) | null {
  // The fields both objects have, by the official types.
  const object = wire<Stripe.PaymentIntent | Stripe.Refund>(value);
  if (!object || typeof object.id !== 'string' || object.object !== kind) return null;
  return {
    id: object.id,
    status: object.status,
    amount: typeof object.amount === 'number' ? object.amount : Number.NaN,
    currency: typeof object.currency === 'string' ? object.currency : '',
    metadata: isRecord(object.metadata) ? object.metadata : {},
    raw: value as Record<string, unknown>,
  };
}

export function readIntent(value: unknown): StripeIntentView | null {
  const object = readStripeObject(value, 'payment_intent');
  if (!object) return null;
  const { raw, ...intent } = object;
  return { ...intent, hasLastPaymentError: isRecord((raw as WirePaymentIntent).last_payment_error) };
}

/**
 * `client_secret` lets a browser confirm the intent: it has no place in stored evidence or logs.
 * Removes it from an intent and from an error's embedded intent; returns a copy.
 */
export function redactIntentSecrets(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const rest: Record<string, unknown> = { ...body };
  delete rest.client_secret;
  if (isRecord(rest.error)) rest.error = redactIntentSecrets(rest.error);
  if (isRecord(rest.payment_intent)) rest.payment_intent = redactIntentSecrets(rest.payment_intent);
  return rest;
}

export function toProviderCharge(intent: StripeIntentView, raw: unknown): ProviderCharge {
  const attemptId = intent.metadata.attempt_id;
  return {
    providerChargeId: intent.id,
    // A status we do not recognise must not resolve anything: treat it as still in progress.
    outcome: mapStripeIntentStatus(intent.status, intent.hasLastPaymentError) ?? 'pending',
    amountCents: intent.amount,
    currency: intent.currency,
    attemptId: typeof attemptId === 'string' ? attemptId : null,
    raw: redactIntentSecrets(raw),
  };
}

/** Stripe's `error` object, the same on every endpoint. */
export function readStripeError(body: unknown): ProviderError | null {
  const error = isRecord(body) ? wire<Stripe.StripeRawError>(body.error) : null;
  if (!error) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    type: text(error.type),
    code: text(error.code),
    declineCode: text(error.decline_code),
    message: text(error.message),
  };
}

/** Why an intent left `requires_action` by an off-session confirm failed: the reason kept on the attempt. */
const AUTHENTICATION_REQUIRED: ProviderError = {
  type: 'card_error',
  code: 'authentication_required',
  message: 'the card asks the customer to authenticate (requires_action); an off-session charge cannot, so it failed',
};

/** Reads a create call's result: the intent comes from the body, or from `error.payment_intent` on a 402. */
export function toCreateChargeResult(http: ProviderHttpResult): GatewayCallResult {
  return toCreateCallResult(http, (json, response) => {
    const error = readStripeError(json);
    const intent = readIntent(error ? (wire<Stripe.StripeRawError>((json as { error: unknown }).error)?.payment_intent) : json);
    return {
      replayed: response.headers['idempotent-replayed'] === 'true',
      providerChargeId: intent?.id ?? null,
      providerOutcome: intent ? mapStripeIntentStatus(intent.status, intent.hasLastPaymentError) : null,
      error: error ?? (intent?.status === 'requires_action' ? AUTHENTICATION_REQUIRED : null),
      evidence: redactIntentSecrets(json),
    };
  });
}
