import type { ProviderOutcome } from '../gateway-call.result.js';

/** Every PaymentIntent status Stripe documents. */
export type StripeIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

const OUTCOME_BY_STATUS: Record<Exclude<StripeIntentStatus, 'requires_payment_method'>, ProviderOutcome> = {
  succeeded: 'succeeded',
  processing: 'pending',
  // After an off-session confirm nobody is there to authenticate: nothing was captured and nothing will be by
  // us. Should the customer complete it elsewhere, the payment_intent.succeeded webhook is a late capture.
  requires_action: 'failed',
  requires_confirmation: 'pending',
  // Authorised but not captured: no money has moved yet.
  requires_capture: 'pending',
  canceled: 'failed',
};

/**
 * Maps a PaymentIntent status onto our outcome (provider-contracts.md, "Status → our state").
 * `requires_payment_method` is ambiguous on its own: with a `last_payment_error` it is what a declined
 * confirmation leaves behind (failed); without one the intent was simply never confirmed (pending).
 * An unrecognised status returns null so callers treat it as proving nothing.
 */
export function mapStripeIntentStatus(status: unknown, hasLastPaymentError: boolean): ProviderOutcome | null {
  if (status === 'requires_payment_method') return hasLastPaymentError ? 'failed' : 'pending';
  if (typeof status !== 'string' || !Object.hasOwn(OUTCOME_BY_STATUS, status)) return null;
  return OUTCOME_BY_STATUS[status as keyof typeof OUTCOME_BY_STATUS];
}
