import type Stripe from 'stripe';
import type { RefundRequest } from '../refund-gateway.port.js';
import { encodeStripeForm } from './stripe-form.encoding.js';

/**
 * Form-encodes a refund as Stripe's `POST /v1/refunds` expects (typed by the official package), in one fixed field
 * order so the same request always yields the same bytes (stored on the attempt, resent verbatim under its key).
 * The amount is always explicit: omitting it would refund whatever remains, which is not what a partial refund
 * asked for.
 */
export function encodeStripeRefund(request: RefundRequest): string {
  const params = {
    payment_intent: request.providerChargeId,
    amount: request.amountCents,
    metadata: { ...(request.chargeId === null ? {} : { charge_id: request.chargeId }), refund_id: request.refundId, refund_attempt_id: request.attemptId },
  } satisfies Stripe.RefundCreateParams;
  return encodeStripeForm(params);
}
