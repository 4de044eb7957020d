import { describe, expect, it } from 'vitest';
import type { ChargeRequest } from '../charge-gateway.port.js';
import { asaasChargeProblem, encodeAsaasCharge, todayIn } from './asaas-charge.encoding.js';

const request: ChargeRequest = {
  attemptId: '7a1f0c3e-0000-4000-8000-000000000001',
  chargeId: '7a1f0c3e-0000-4000-8000-000000000002',
  idempotencyKey: 'unused-by-asaas',
  amountCents: 4990,
  currency: 'brl',
  customerId: 'cus_000005219613',
  paymentMethodId: null,
  billingType: 'PIX',
  dueDate: null,
};

describe('encodeAsaasCharge', () => {
  it('writes the fields in a fixed order, the amount as exact decimal reais and our attempt id as externalReference', () => {
    expect(encodeAsaasCharge(request, '2026-12-02')).toBe(
      '{"customer":"cus_000005219613","billingType":"PIX","value":49.90,"dueDate":"2026-12-02",' +
        '"description":"charge 7a1f0c3e-0000-4000-8000-000000000002","externalReference":"7a1f0c3e-0000-4000-8000-000000000001"}',
    );
  });

  it('is valid JSON whose value reads back as the same amount', () => {
    const body = JSON.parse(encodeAsaasCharge({ ...request, amountCents: 1999 }, '2026-12-02'));
    expect(body).toMatchObject({ value: 19.99, externalReference: request.attemptId, customer: request.customerId });
  });

  it('uses the charge\'s own due date when it has one', () => {
    expect(JSON.parse(encodeAsaasCharge({ ...request, dueDate: '2027-01-15' }, '2026-12-02')).dueDate).toBe('2027-01-15');
  });

  it('charges a card in the same call with its token and the buyer\'s IP, and leaves a card without one an invoice', () => {
    const card = { ...request, billingType: 'CREDIT_CARD', paymentMethodId: '76496073-536f-4835-80db-c45d00f33695', customerIp: '203.0.113.7' };
    expect(encodeAsaasCharge(card, '2026-12-02')).toBe(
      '{"customer":"cus_000005219613","billingType":"CREDIT_CARD","value":49.90,"dueDate":"2026-12-02",' +
        '"description":"charge 7a1f0c3e-0000-4000-8000-000000000002","creditCardToken":"76496073-536f-4835-80db-c45d00f33695",' +
        '"remoteIp":"203.0.113.7","externalReference":"7a1f0c3e-0000-4000-8000-000000000001"}',
    );
    const invoice = JSON.parse(encodeAsaasCharge({ ...request, billingType: 'CREDIT_CARD' }, '2026-12-02'));
    expect(invoice).not.toHaveProperty('creditCardToken');
    expect(invoice).not.toHaveProperty('remoteIp');
  });

  it('escapes what JSON must escape', () => {
    const body = JSON.parse(encodeAsaasCharge({ ...request, customerId: 'cus_"x"\\' }, '2026-12-02'));
    expect(body.customer).toBe('cus_"x"\\');
  });
});

describe('asaasChargeProblem', () => {
  it.each([
    ['brl', 'PIX', null],
    ['brl', 'BOLETO', null],
    ['brl', 'CREDIT_CARD', null],
    ['brl', null, 'billingType'],
    ['brl', 'UNDEFINED', 'billingType'],
    ['brl', 'pix', 'billingType'],
  ])('currency %s, billingType %s → problem with %s', (currency, billingType, field) => {
    expect(asaasChargeProblem({ currency, billingType })?.field ?? null).toBe(field);
  });
});

describe('todayIn', () => {
  it.each([
    // 02:30 UTC is still the previous evening in São Paulo (UTC-3).
    ['2026-12-02T02:30:00Z', 'America/Sao_Paulo', '2026-12-01'],
    ['2026-12-02T03:00:00Z', 'America/Sao_Paulo', '2026-12-02'],
    ['2026-12-02T02:30:00Z', 'UTC', '2026-12-02'],
    ['2026-12-31T23:59:59Z', 'Asia/Tokyo', '2027-01-01'],
  ])('%s in %s is %s', (instant, zone, day) => {
    expect(todayIn(zone, new Date(instant))).toBe(day);
  });
});

describe('asaasChargeProblem for cards', () => {
  it('names the field when a card token comes without the buyer\'s IP, or with a billing type that waits for its payer', () => {
    const base = { currency: 'brl', billingType: 'CREDIT_CARD' };
    expect(asaasChargeProblem({ ...base, paymentMethodId: 'tok', customerIp: '203.0.113.7' })).toBeNull();
    expect(asaasChargeProblem({ ...base, paymentMethodId: null })).toBeNull();
    expect(asaasChargeProblem({ ...base, paymentMethodId: 'tok' })).toMatchObject({ field: 'customerIp' });
    expect(asaasChargeProblem({ ...base, paymentMethodId: null, customerIp: '203.0.113.7' })).toMatchObject({ field: 'customerIp' });
    expect(asaasChargeProblem({ ...base, billingType: 'PIX', paymentMethodId: 'tok', customerIp: '203.0.113.7' })).toMatchObject({ field: 'paymentMethodId' });
  });
});
