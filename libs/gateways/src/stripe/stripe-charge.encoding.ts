import type { ChargeRequest } from '../charge-gateway.port.js';

/**
 * Form-encodes a charge as Stripe expects, in one fixed field order so the same request always yields the
 * same bytes (the attempt stores them and resends them verbatim under its idempotency key).
 *
 * - `confirm=true`: create and charge in one call, so one key covers the whole money movement.
 * - `off_session=true` always: these are merchant-initiated charges with no customer present to complete a
 *   3-D Secure step, and Stripe accepts the flag with or without an explicit payment method. Sending it
 *   unconditionally keeps the encoding a function of the fields alone.
 * - `payment_method` is omitted when null (the customer's default is then Stripe's business).
 * - Brackets in keys stay literal, as stripe-node sends them; values are percent-encoded.
 */
export function encodeStripeCharge(request: ChargeRequest): string {
  const fields: Array<[string, string | number | null]> = [
    ['amount', request.amountCents],
    ['currency', request.currency],
    ['customer', request.customerId],
    ['payment_method', request.paymentMethodId],
    ['confirm', 'true'],
    ['off_session', 'true'],
    ['metadata[charge_id]', request.chargeId],
    ['metadata[attempt_id]', request.attemptId],
  ];
  return fields
    .filter((field): field is [string, string | number] => field[1] !== null)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
}
