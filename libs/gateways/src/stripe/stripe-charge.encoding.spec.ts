import { describe, expect, it } from 'vitest';
import type { ChargeRequest } from '../charge-gateway.port.js';
import { encodeStripeCharge } from './stripe-charge.encoding.js';

const request: ChargeRequest = {
  attemptId: 'att_1',
  chargeId: 'chg_1',
  idempotencyKey: 'key-1',
  amountCents: 1999,
  currency: 'usd',
  customerId: 'cus_1',
  paymentMethodId: 'pm_card_visa',
};

describe('encodeStripeCharge', () => {
  it('writes every field in the fixed order, cards only so no return_url is needed', () => {
    expect(encodeStripeCharge(request)).toBe(
      'amount=1999&currency=usd&customer=cus_1&payment_method=pm_card_visa&confirm=true&off_session=true' +
        '&allowed_payment_method_types[0]=card' +
        '&metadata[charge_id]=chg_1&metadata[attempt_id]=att_1',
    );
  });

  it('refuses to encode a charge without a payment method (Stripe would fall back to a legacy default_source)', () => {
    expect(() => encodeStripeCharge({ ...request, paymentMethodId: null })).toThrow(/needs a payment method/);
  });

  it('yields the same bytes however the request object was built', () => {
    const reordered: ChargeRequest = {
      paymentMethodId: 'pm_card_visa',
      customerId: 'cus_1',
      currency: 'usd',
      amountCents: 1999,
      idempotencyKey: 'key-1',
      chargeId: 'chg_1',
      attemptId: 'att_1',
    };
    expect(encodeStripeCharge(reordered)).toBe(encodeStripeCharge(request));
  });

  it('percent-encodes values so they cannot inject extra fields', () => {
    const encoded = encodeStripeCharge({ ...request, customerId: 'cus 1&amount=1', chargeId: 'a/b=c' });
    expect(encoded).toContain('customer=cus%201%26amount%3D1&');
    expect(encoded).toContain('metadata[charge_id]=a%2Fb%3Dc&');
    expect(new URLSearchParams(encoded).getAll('amount')).toEqual(['1999']);
  });

  it('does not put the idempotency key in the body (it travels as a header)', () => {
    expect(encodeStripeCharge(request)).not.toContain('key-1');
  });
});
