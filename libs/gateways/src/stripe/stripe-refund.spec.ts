import { describe, expect, it } from 'vitest';
import { encodeStripeRefund } from './stripe-refund.encoding.js';
import { mapStripeRefundStatus } from './stripe-refund-status.js';
import { toCreateRefundResult } from './stripe-refund.response.js';

describe('Stripe refunds', () => {
  it('encodes a refund in one fixed order with its amount and our references', () => {
    const body = encodeStripeRefund({ attemptId: 'att-1', refundId: 'ref-1', chargeId: 'chg-1', providerChargeId: 'pi_1', amountCents: 1200, currency: 'usd' });
    expect(body).toBe('payment_intent=pi_1&amount=1200&metadata[charge_id]=chg-1&metadata[refund_id]=ref-1&metadata[refund_attempt_id]=att-1');
    // The refund of a provider charge that is none of ours (an executed proposal) names no charge of ours.
    expect(encodeStripeRefund({ attemptId: 'att-2', refundId: 'ref-2', chargeId: null, providerChargeId: 'pi_2', amountCents: 700, currency: 'usd' })).toBe(
      'payment_intent=pi_2&amount=700&metadata[refund_id]=ref-2&metadata[refund_attempt_id]=att-2',
    );
  });

  it.each([
    ['pending', 'pending'],
    ['requires_action', 'pending'],
    ['succeeded', 'succeeded'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
    ['refunded', null],
    [undefined, null],
    ['__proto__', null],
  ] as const)('maps refund status %j to %s', (status, expected) => {
    expect(mapStripeRefundStatus(status)).toBe(expected);
  });

  it('reads a created refund as the provider id and outcome the one classifier needs', () => {
    const body = JSON.stringify({ id: 're_1', object: 'refund', amount: 1200, currency: 'usd', status: 'succeeded', metadata: { refund_attempt_id: 'att-1' } });
    const result = toCreateRefundResult({ kind: 'response', status: 200, headers: { 'idempotent-replayed': 'true' }, body, durationMs: 5 });
    expect(result).toMatchObject({ kind: 'response', httpStatus: 200, providerChargeId: 're_1', providerOutcome: 'succeeded', replayed: true, error: null });
  });

  it('keeps a refusal as an error with no refund', () => {
    const body = JSON.stringify({ error: { type: 'invalid_request_error', message: 'Refund amount (5000) is greater than unrefunded amount on charge (4990)' } });
    const result = toCreateRefundResult({ kind: 'response', status: 400, headers: {}, body, durationMs: 5 });
    expect(result).toMatchObject({ httpStatus: 400, providerChargeId: null, providerOutcome: null, error: { type: 'invalid_request_error' } });
  });
});
