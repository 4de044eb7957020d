import type { StripePaymentIntent } from './payment-intent.js';

/** Stripe's error body: `{ error: { type, code?, message, ... } }`. */
export type StripeErrorBody = { error: Record<string, unknown> };

function stripeError(type: string, message: string, fields: Record<string, unknown> = {}): StripeErrorBody {
  return { error: { type, message, ...fields } };
}

export const stripeErrors = {
  // Never echoes the key it was given: a simulator log must not become a place where secrets land.
  authentication: () =>
    stripeError('authentication_error', 'You did not provide an API key. Provide it as a Bearer token.'),
  missingParam: (param: string) =>
    stripeError('invalid_request_error', `Missing required param: ${param}.`, { code: 'parameter_missing', param }),
  invalidParam: (param: string, message: string) =>
    stripeError('invalid_request_error', message, { code: 'parameter_invalid', param }),
  amountTooSmall: (minimum: number, currency: string) =>
    stripeError('invalid_request_error', `Amount must be at least ${minimum} ${currency} minor units`, { code: 'amount_too_small', param: 'amount' }),
  confirmWithoutPaymentMethod: (customer: string | null) =>
    stripeError(
      'invalid_request_error',
      `You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with ${customer ?? 'a customer'}, ` +
        'specify a payment method attached to this customer along with the customer ID.',
      { code: 'payment_intent_unexpected_state', param: 'payment_method' },
    ),
  returnUrlRequired: () =>
    stripeError(
      'invalid_request_error',
      'A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, ' +
        'some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set ' +
        '`automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.',
      { param: 'return_url' },
    ),
  resourceMissing: (id: string) =>
    stripeError('invalid_request_error', `No such payment_intent: '${id}'`, { code: 'resource_missing', param: 'id' }),
  unknownRoute: (method: string, path: string) =>
    stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`),
  idempotencyMismatch: () =>
    stripeError(
      'idempotency_error',
      'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
        'Try using a key other than the one used in the original request.',
    ),
  keyInUse: () =>
    stripeError(
      'invalid_request_error',
      'There is currently another in-progress request using this Idempotent Key (that probably means you ' +
        'submitted twice, and the other request is still going through). Please try again later.',
      { code: 'idempotency_key_in_use' },
    ),
  rateLimited: () =>
    stripeError('rate_limit_error', 'Request rate limit exceeded. Please retry with exponential backoff.', {
      code: 'rate_limit',
    }),
  apiError: () => stripeError('api_error', 'An unknown error occurred on Stripe\'s end (simulated).'),
  cardDeclined: (intent: StripePaymentIntent) => {
    const failure = intent.last_payment_error;
    return stripeError('card_error', failure?.message ?? 'Your card was declined.', {
      code: failure?.code ?? 'card_declined',
      decline_code: failure?.decline_code ?? 'generic_decline',
      charge: intent.latest_charge,
      payment_intent: intent,
    });
  },
};
