import { describe, expect, it } from 'vitest';
import { asaasRefundsOf, decodeAsaasRefund, encodeAsaasRefund } from './asaas-refund.js';

const request = { attemptId: 'att-1', refundId: 'ref-1', chargeId: null, providerChargeId: 'pay_080225913252', amountCents: 4990, currency: 'brl' };
const payment = (refunds: unknown) => ({ object: 'payment', id: 'pay_080225913252', value: 49.9, status: 'RECEIVED', refunds });

describe('Asaas refunds', () => {
  it('stores the payment and the exact body, and reads both back with the attempt from the description', () => {
    const payload = encodeAsaasRefund(request);
    expect(payload).toBe('pay_080225913252\n{"value":49.90,"description":"charge-once refund att-1"}');
    expect(decodeAsaasRefund(payload)).toEqual({ paymentId: 'pay_080225913252', body: '{"value":49.90,"description":"charge-once refund att-1"}', attemptId: 'att-1' });
  });

  it.each([
    ['no refunds yet (absent)', { object: 'payment', id: 'pay_080225913252', value: 49.9 }, []],
    ['no refunds yet (null)', payment(null), []],
    ['another attempt’s refund only', payment([{ status: 'DONE', value: 49.9, description: 'charge-once refund att-2' }]), []],
    ['ours, done', payment([{ status: 'DONE', value: 49.9, description: 'charge-once refund att-1' }]), [{ outcome: 'succeeded', amountCents: 4990 }]],
    ['ours, pending', payment([{ status: 'PENDING', value: 10, description: 'charge-once refund att-1' }]), [{ outcome: 'pending', amountCents: 1000 }]],
    ['ours, cancelled', payment([{ status: 'CANCELLED', value: 10, description: 'charge-once refund att-1' }]), [{ outcome: 'failed', amountCents: 1000 }]],
    ['ours, in a status nobody knows: proves nothing final', payment([{ status: 'LATER', value: 10, description: 'charge-once refund att-1' }]), [{ outcome: 'pending' }]],
    ['a refunds field that is no list: unreadable', payment({}), null],
    ['not a payment at all: unreadable', { errors: [] }, null],
  ])('finds our refunds in a payment: %s', (_name, body, expected) => {
    const found = asaasRefundsOf(body, 'att-1');
    if (expected === null) expect(found).toBeNull();
    else expect(found).toEqual(expected.map((e) => expect.objectContaining({ providerChargeId: 'pay_080225913252:refund:att-1', currency: 'brl', ...e })));
  });
});
