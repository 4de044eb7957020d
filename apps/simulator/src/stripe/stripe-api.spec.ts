import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, stripeCall } from '../simulator-test-client.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ declineCustomers: ['cus_always_declined'] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('the simulated Stripe API: creating payment intents', () => {
  it('refuses a request without a bearer key, and the 401 names no key', async () => {
    const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), auth: null });

    expect(response.status).toBe(401);
    expect(response.json.error.type).toBe('authentication_error');
    expect(sim.stats()).toMatchObject({ intentsCreated: 0, requests: { unauthorized: 1, creates: 0 } });
  });

  it('creates and confirms an intent that succeeds, echoing the idempotency key', async () => {
    const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-ok' });

    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1000,
      amount_received: 1000,
      currency: 'usd',
      customer: 'cus_test',
      metadata: { charge_id: 'chg_1', attempt_id: 'att_1' },
    });
    expect(response.json.id).toMatch(/^pi_/);
    expect(response.json.latest_charge).toMatch(/^ch_/);
    expect(response.headers['idempotency-key']).toBe('k-ok');
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['pm_card_chargeDeclined', 'cus_test', 'generic_decline'],
    ['pm_card_insufficientFunds', 'cus_test', 'insufficient_funds'],
    ['pm_card_visa', 'cus_always_declined', 'generic_decline'],
  ])('declines %s for %s with 402 and a stored intent', async (paymentMethod, customer, declineCode) => {
    const body = chargeBody({ paymentMethod, customer });
    const first = await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-decline' });
    const replay = await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-decline' });

    expect(first.status).toBe(402);
    expect(first.json.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: declineCode });
    expect(first.json.error.payment_intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { decline_code: declineCode },
    });
    expect(sim.intents({ attemptId: 'att_1' })).toHaveLength(1);
    expect(replay).toMatchObject({ status: 402, json: first.json });
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['a missing amount', 'currency=usd', 'parameter_missing'],
    ['a missing currency', 'amount=100', 'parameter_missing'],
    ['a fractional amount', 'amount=10.5&currency=usd', 'parameter_invalid'],
  ])('rejects %s with 400 and does not store it against the key', async (_case, body, code) => {
    const invalid = await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-invalid' });
    const fixed = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-invalid' });

    expect(invalid.status).toBe(400);
    expect(invalid.json.error).toMatchObject({ type: 'invalid_request_error', code });
    expect(fixed.status).toBe(200);
    expect(sim.stats().createsByIdempotencyKey).toEqual({ 'k-invalid': 1 });
  });

  it('replays the first response for the same key and body, creating nothing more', async () => {
    const first = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-same' });
    const second = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-same' });

    expect(second.json).toEqual(first.json);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(sim.stats()).toMatchObject({ intentsCreated: 1, idempotentReplays: 1, createsByIdempotencyKey: { 'k-same': 1 } });
  });

  it('answers a reused key with other parameters with 400 idempotency_error', async () => {
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-reuse' });
    const changed = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ amount: '2000' }), key: 'k-reuse' });

    expect(changed.status).toBe(400);
    expect(changed.json.error.type).toBe('idempotency_error');
    expect(changed.json.error.message).toMatch(/^Keys for idempotent requests can only be used with the same parameters/);
    expect(sim.stats().intentsCreated).toBe(1);
  });

  it('creates a new intent for every request without a key', async () => {
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody() });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody() });

    expect(sim.stats()).toMatchObject({ intentsCreated: 2, createsByIdempotencyKey: {} });
  });

  it('leaves an unconfirmed intent waiting for confirmation', async () => {
    const body = 'amount=500&currency=usd&customer=cus_test&payment_method=pm_card_visa';
    const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body });

    expect(response.json).toMatchObject({ status: 'requires_confirmation', latest_charge: null });
  });

  it('logs every create request with its exact body and without the Authorization value', async () => {
    const body = chargeBody();
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-log', auth: 'Bearer sk_test_very_secret' });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-log', auth: 'Bearer sk_test_very_secret' });

    const logged = sim.requests('k-log');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ idempotencyKey: 'k-log', rawBody: body });
    expect(logged[0].headers['idempotency-key']).toBe('k-log');
    expect(Date.parse(logged[0].receivedAt)).not.toBeNaN();
    expect(JSON.stringify(logged)).not.toContain('very_secret');
  });
  it('refuses, as Stripe does, a confirm without a payment method and one that may redirect without a return_url, storing nothing', async () => {
    const before = sim.stats().intentsCreated;
    const withoutMethod = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody().replace('payment_method=pm_card_visa&', '') });
    expect(withoutMethod.status).toBe(400);
    expect(withoutMethod.json.error).toMatchObject({ type: 'invalid_request_error', code: 'payment_intent_unexpected_state', param: 'payment_method' });
    const mayRedirect = chargeBody().replace('&automatic_payment_methods%5Ballow_redirects%5D=never', '');
    expect(mayRedirect).not.toContain('allow_redirects');
    const withoutReturnUrl = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: mayRedirect });
    expect(withoutReturnUrl.status).toBe(400);
    expect(withoutReturnUrl.json.error).toMatchObject({ type: 'invalid_request_error', param: 'return_url' });
    expect((await stripeCall(sim, 'POST', '/v1/payment_intents', { body: `${mayRedirect}&return_url=https%3A%2F%2Fshop.example%2Fdone` })).status).toBe(200);
    expect((await stripeCall(sim, 'POST', '/v1/payment_intents', { body: `${mayRedirect}&payment_method_types[]=card` })).status).toBe(200);
    expect(sim.stats().intentsCreated).toBe(before + 2);
  });

  it('fails off-session a card that asks for authentication: 402 authentication_required', async () => {
    const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ paymentMethod: 'pm_card_authenticationRequired' }) });
    expect(response.status).toBe(402);
    expect(response.json.error).toMatchObject({ type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required' });
    expect(response.json.error.payment_intent).toMatchObject({ status: 'requires_payment_method' });
  });
});
