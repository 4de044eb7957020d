import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, stripeCall } from '../simulator-test-client.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function paidIntent(customer = 'cus_r'): Promise<string> {
  const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ customer, amount: '1000' }), key: `pi-${customer}` });
  expect(response.json.status).toBe('succeeded');
  return response.json.id as string;
}

const refundBody = (intent: string, amount: number, attempt = 'ratt-1') =>
  new URLSearchParams({ payment_intent: intent, amount: String(amount), 'metadata[refund_attempt_id]': attempt }).toString();

describe('the simulated Stripe API: refunds', () => {
  it('refunds part of a succeeded intent, replays the same key, and lists refunds by payment intent', async () => {
    const intent = await paidIntent();
    const first = await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 400), key: 'r-1' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ object: 'refund', amount: 400, status: 'succeeded', payment_intent: intent, metadata: { refund_attempt_id: 'ratt-1' } });
    const replay = await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 400), key: 'r-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.id).toBe(first.json.id);
    expect((await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 401), key: 'r-1' })).json.error.type).toBe('idempotency_error');
    expect(sim.stats()).toMatchObject({ refundsCreated: 1, refundsByIdempotencyKey: { 'r-1': 1 } });

    const list = await stripeCall(sim, 'GET', `/v1/refunds?payment_intent=${intent}&limit=100`);
    expect(list.json).toMatchObject({ object: 'list', has_more: false });
    expect(list.json.data.map((r: { id: string }) => r.id)).toEqual([first.json.id]);
    expect((await stripeCall(sim, 'GET', `/v1/refunds/${first.json.id as string}`)).json.id).toBe(first.json.id);
  });

  it('refuses more than remains to refund, or an intent that took no money, and stores nothing', async () => {
    const intent = await paidIntent();
    expect((await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 700), key: 'a' })).status).toBe(200);
    const tooMuch = await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 301), key: 'b' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error.message).toContain('greater than unrefunded amount');
    expect((await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody('pi_missing', 1), key: 'c' })).status).toBe(400);
    expect(sim.refunds({ paymentIntentId: intent })).toHaveLength(1);
  });

  it('suffers the same fault knobs as creates: 500 after create keeps the refund and replays the 500', async () => {
    const intent = await paidIntent('cus_faulty');
    sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: 'cus_faulty' } }] });
    const first = await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 100), key: 'f-1' });
    expect(first.status).toBe(500);
    expect((await stripeCall(sim, 'POST', '/v1/refunds', { body: refundBody(intent, 100), key: 'f-1' })).status).toBe(500);
    expect(sim.refunds({ refundAttemptId: 'ratt-1' })).toHaveLength(1);
    expect(sim.stats().faultsInjected['500_after_create']).toBe(1);
  });
});
