import type { RefundRequest } from '../refund-gateway.port.js';

/**
 * Form-encodes a refund as Stripe's `POST /v1/refunds` expects, in one fixed field order so the same request
 * always yields the same bytes (stored on the attempt, resent verbatim under its key). The amount is always
 * explicit: omitting it would refund whatever remains, which is not what a partial refund asked for.
 */
export function encodeStripeRefund(request: RefundRequest): string {
  const fields: Array<[string, string | number]> = [
    ['payment_intent', request.providerChargeId],
    ['amount', request.amountCents],
    ...(request.chargeId === null ? [] : [['metadata[charge_id]', request.chargeId] as [string, string]]),
    ['metadata[refund_id]', request.refundId],
    ['metadata[refund_attempt_id]', request.attemptId],
  ];
  return fields.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&');
}
