import type Stripe from 'stripe';
import type { ChargeRequest } from '../charge-gateway.port.js';
import { encodeStripeForm } from './stripe-form.encoding.js';

/**
 * The PaymentIntent create, typed by the official `stripe` package (a misspelled or unknown parameter does not
 * compile), in one fixed field order so the same request always yields the same bytes.
 *
 * - `confirm=true`: create and charge in one call, so one key covers the whole money movement.
 * - `off_session=true`: merchant-initiated, no customer present for a 3-D Secure step; a card that asks for one
 *   fails the confirm (402 `authentication_required`), and an intent left `requires_action` is a failure too.
 * - `payment_method` always: without it Stripe's confirm falls back only to a legacy `default_source`, never to
 *   `invoice_settings.default_payment_method`. The api refuses a Stripe charge without one (paymentMethodId).
 * - `automatic_payment_methods[enabled]=true&…[allow_redirects]=never`: on accounts with automatic payment
 *   methods, a confirm that might redirect needs a `return_url`, which a server-side charge has not got; this
 *   takes only methods that never redirect.
 */
export function encodeStripeCharge(request: ChargeRequest): string {
  if (!request.paymentMethodId) throw new Error(`charge ${request.chargeId}: a Stripe charge needs a payment method`);
  const params = {
    amount: request.amountCents,
    currency: request.currency,
    customer: request.customerId,
    payment_method: request.paymentMethodId,
    confirm: true,
    off_session: true,
    automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    metadata: { charge_id: request.chargeId, attempt_id: request.attemptId },
  } satisfies Stripe.PaymentIntentCreateParams;
  return encodeStripeForm(params);
}
