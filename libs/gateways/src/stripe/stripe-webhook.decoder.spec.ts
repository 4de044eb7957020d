import { describe, expect, it } from 'vitest';
import { signStripePayload } from './stripe-webhook.signature.js';
import { StripeWebhookDecoder } from './stripe-webhook.decoder.js';

const secret = 'whsec_test_secret';
const now = 1_800_000_000;
const decoder = new StripeWebhookDecoder(secret, 300);

function event(type: string, object: Record<string, unknown> = {}): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type,
      data: { object: { id: 'pi_1', object: 'payment_intent', amount: 4990, currency: 'usd', metadata: { attempt_id: 'att-1', charge_id: 'ch-1' }, ...object } },
    }),
  );
}

function signed(body: Buffer, at = now, key = secret) {
  return { 'stripe-signature': signStripePayload(body, key, at) };
}

describe('StripeWebhookDecoder', () => {
  it.each([
    ['payment_intent.succeeded', 'succeeded'],
    ['payment_intent.payment_failed', 'failed'],
    ['payment_intent.canceled', 'failed'],
    ['payment_intent.processing', 'pending'],
  ])('reads %s as outcome %s with our reference', (type, outcome) => {
    const body = event(type);
    const decoded = decoder.decode(body, signed(body), now);
    expect(decoded).toMatchObject({ ok: true, event: { eventId: 'evt_1', type, attemptId: 'att-1', providerChargeId: 'pi_1', outcome, amountCents: 4990, currency: 'usd' } });
  });

  it.each([
    ['charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_1', amount_refunded: 1000 }, { kind: 'refund', refundedCents: 1000, refundId: null, status: null }],
    ['charge.refund.updated', { id: 're_1', object: 'refund', payment_intent: 'pi_1', amount: 1000, status: 'succeeded' }, { kind: 'refund', refundedCents: null, refundId: 're_1', status: 'succeeded' }],
    ['charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'needs_response' }, { kind: 'dispute', disputeId: 'dp_1', status: 'needs_response', closed: false }],
    ['charge.dispute.closed', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'lost' }, { kind: 'dispute', disputeId: 'dp_1', status: 'lost', closed: true }],
    // Stripe's Dispute.Status of the pinned version: prevented closes; an appeal of a lost dispute reopens it.
    ['charge.dispute.updated', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'prevented' }, { kind: 'dispute', disputeId: 'dp_1', status: 'prevented', closed: true }],
    ['charge.dispute.updated', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'appeal_needs_response' }, { kind: 'dispute', disputeId: 'dp_1', status: 'appeal_needs_response', closed: false }],
    ['charge.dispute.updated', { id: 'dp_1', object: 'dispute', payment_intent: 'pi_1', status: 'appeal_under_review' }, { kind: 'dispute', disputeId: 'dp_1', status: 'appeal_under_review', closed: false }],
  ])('reads %s as money moved back after a success, matched by its payment intent', (type, object, afterSuccess) => {
    const body = event(type, object);
    const decoded = decoder.decode(body, signed(body), now);
    expect(decoded).toMatchObject({ ok: true, event: { type, attemptId: 'att-1', providerChargeId: 'pi_1', outcome: null, afterSuccess } });
  });

  it.each([
    ['refund.created', 'succeeded'],
    ['refund.updated', 'pending'],
    ['refund.failed', 'failed'],
    ['charge.refund.updated', 'succeeded'],
  ])('reads %s as a fact about our refund attempt (status %s), keeping money-moved-back for a refund that is not ours', (type, status) => {
    const object = { id: 're_1', object: 'refund', payment_intent: 'pi_1', amount: 1000, currency: 'usd', status, metadata: { refund_attempt_id: 'ratt-1' } };
    const body = event(type, object);
    const decoded = decoder.decode(body, signed(body), now);
    expect(decoded).toMatchObject({
      ok: true,
      event: { providerChargeId: 'pi_1', refund: { providerRefundId: 're_1', attemptId: 'ratt-1', outcome: status, amountCents: 1000, currency: 'usd' }, afterSuccess: { kind: 'refund', refundId: 're_1' } },
    });
  });

  it.each([
    ['a forged signature', (b: Buffer) => signed(b, now, 'whsec_wrong')],
    ['a stale timestamp', (b: Buffer) => signed(b, now - 301)],
    ['a missing header', () => ({})],
    ['a body altered after signing', (b: Buffer) => signed(Buffer.from(b.toString().replace('4990', '1')))],
  ])('rejects %s', (_name, headers) => {
    const body = event('payment_intent.succeeded');
    expect(decoder.decode(body, headers(body), now)).toMatchObject({ ok: false });
  });

  it('rejects a correctly signed body that is not JSON', () => {
    const body = Buffer.from('not json');
    expect(decoder.decode(body, signed(body), now)).toEqual({ ok: false, reason: 'body is not JSON' });
  });
});
