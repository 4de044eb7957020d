import { describe, expect, it } from 'vitest';
import { AsaasWebhookDecoder } from './asaas-webhook.decoder.js';

const token = 'asaas-webhook-token-for-tests';
const decoder = new AsaasWebhookDecoder(token);
const now = 1_800_000_000;

function event(type: string, payment: Record<string, unknown> = {}): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: 'evt_05b708f961d739ea7eba7e4db318f621&368604920',
      event: type,
      dateCreated: '2026-12-02 10:00:00',
      payment: { object: 'payment', id: 'pay_080225913252', customer: 'cus_1', value: 49.9, status: 'PENDING', externalReference: 'att-1', deleted: false, ...payment },
    }),
  );
}

describe('AsaasWebhookDecoder', () => {
  it.each([
    ['PAYMENT_CREATED', { status: 'PENDING' }, 'pending'],
    ['PAYMENT_CONFIRMED', { status: 'CONFIRMED' }, 'succeeded'],
    ['PAYMENT_RECEIVED', { status: 'RECEIVED' }, 'succeeded'],
    ['PAYMENT_OVERDUE', { status: 'OVERDUE' }, 'pending'],
    ['PAYMENT_DELETED', { status: 'PENDING' }, 'failed'],
    ['PAYMENT_UPDATED', { status: 'PENDING', deleted: true }, 'failed'],
    ['PAYMENT_CREATED', { status: 'A_STATUS_FROM_THE_FUTURE' }, null],
  ])('reads %s (%o) as outcome %s, with our reference and the amount in cents', (type, payment, outcome) => {
    const decoded = decoder.decode(event(type, payment), { 'asaas-access-token': token }, now);
    expect(decoded).toMatchObject({
      ok: true,
      event: { type, attemptId: 'att-1', providerChargeId: 'pay_080225913252', outcome, amountCents: 4990, currency: 'brl' },
    });
  });

  it.each([
    ['PAYMENT_REFUNDED', 'REFUNDED', 'refund'],
    ['PAYMENT_PARTIALLY_REFUNDED', 'RECEIVED', 'refund'],
    ['PAYMENT_CHARGEBACK_REQUESTED', 'CHARGEBACK_REQUESTED', 'dispute'],
  ])('reads %s as money moved back (%s → %s), not as an outcome', (type, status, kind) => {
    const decoded = decoder.decode(event(type, { status }), { 'asaas-access-token': token }, now);
    expect(decoded).toMatchObject({ ok: true, event: { outcome: null, afterSuccess: { kind }, providerChargeId: 'pay_080225913252' } });
  });

  it.each([
    ['no refunds list: unknown, a person looks', {}, null],
    ['one refund done', { refunds: [{ status: 'DONE', value: 10 }] }, 1000],
    ['a pending and a cancelled refund: the cancelled one gave nothing back', { refunds: [{ status: 'PENDING', value: 2.5 }, { status: 'CANCELLED', value: 30 }] }, 250],
    ['an unreadable refund value: unknown', { refunds: [{ status: 'DONE', value: 'ten' }] }, null],
  ])('reads the refunded total from the payment refunds: %s', (_name, payment, refundedCents) => {
    const decoded = decoder.decode(event('PAYMENT_PARTIALLY_REFUNDED', { status: 'RECEIVED', ...payment }), { 'asaas-access-token': token }, now);
    expect(decoded).toMatchObject({ ok: true, event: { afterSuccess: { kind: 'refund', refundedCents } } });
  });

  it.each([
    ['a wrong token', { 'asaas-access-token': 'not-the-token-at-all' }],
    ['a missing token', {}],
  ])('rejects %s', (_name, headers) => {
    expect(decoder.decode(event('PAYMENT_RECEIVED'), headers, now)).toMatchObject({ ok: false, reason: expect.stringMatching(/access token/) });
  });

  it('rejects everything when no token is configured', () => {
    const unconfigured = new AsaasWebhookDecoder(undefined);
    expect(unconfigured.decode(event('PAYMENT_RECEIVED'), { 'asaas-access-token': '' }, now).ok).toBe(false);
  });

  it('rejects a body that is not an Asaas event', () => {
    const headers = { 'asaas-access-token': token };
    expect(decoder.decode(Buffer.from('nope'), headers, now)).toMatchObject({ ok: false, reason: 'body is not JSON' });
    expect(decoder.decode(Buffer.from('{"type":"x"}'), headers, now)).toMatchObject({ ok: false, reason: 'body is not an Asaas event' });
  });

  it('keeps an unreadable amount as a mismatch (NaN), never as a match', () => {
    const decoded = decoder.decode(event('PAYMENT_RECEIVED', { status: 'RECEIVED', value: 49.999 }), { 'asaas-access-token': token }, now);
    expect(decoded.ok && decoded.event.amountCents).toBeNaN();
  });
});
