import type Stripe from 'stripe';
import type { ChargeRequest } from '../charge-gateway.port.js';
import { encodeStripeForm } from './stripe-form.encoding.js';

/**
 * The PaymentIntent create, typed by the official `stripe` package (a misspelled or unknown parameter does not
 * compile), in one fixed field order so the same request always yields the same bytes.
 *
 * - `confirm=true`: create and charge in one call, so one key covers the whole money movement.
 * - `off_session=true`: merchant-initiated, no customer present for a 3-D Secure step; a card that asks for one
 *   fails the confirm (402 `authentication_required`), and an intent left `requires_action` is a failure too:
 *   only the intent's client_secret, which never leaves this service, could complete it.
 * - `payment_method` always: without it Stripe's confirm falls back only to a legacy `default_source`, never to
 *   `invoice_settings.default_payment_method`. The api refuses a Stripe charge without one (paymentMethodId).
 * - `allowed_payment_method_types[0]=card` (the pinned version's name for the former `payment_method_types`): on
 *   accounts with automatic payment methods a confirm that might redirect needs a `return_url`, which a
 *   server-side charge has not got. Naming cards, rather than `automatic_payment_methods[allow_redirects]=never`,
 *   also keeps out methods that never redirect yet finish later on the customer's own
 *   action (microdeposit verification, vouchers): with those, `requires_action` would not be a failure, and a
 *   second attempt could charge the customer twice.
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
    allowed_payment_method_types: ['card'],
    metadata: { charge_id: request.chargeId, attempt_id: request.attemptId },
  } satisfies Stripe.PaymentIntentCreateParams;
  return encodeStripeForm(params);
}
