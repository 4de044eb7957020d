import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION_PINNED, loadConfig } from '@app/config';
import { StripeGateway } from '@app/gateways';
import type { StripeChargeObject, StripeEvent, StripePaymentIntent } from '@app/simulator';
import { createCharge, submit } from './support/charges.js';
import { declaredFields, undeclared } from './support/stripe-declared-fields.js';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 35: the Stripe adapter and the simulator held to Stripe's published contract, as the official `stripe`
 * package (generated from Stripe's OpenAPI spec) states it. The adapter's parameters and every field it reads are
 * typed by the package (stripe-wire.ts, the encoders' `satisfies`), so `npm run check` refuses a field Stripe does
 * not have; this file holds the simulator's answers and the wire behaviour to the same source.
 */

/** Keys of `Ours` whose values `Theirs` (read deeply as optional) would not take; never when the type fits. */
type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
type Misfits<Ours, Theirs> = { [K in keyof Ours]-?: K extends keyof Theirs ? ([Ours[K]] extends [DeepPartial<Theirs[K]>] ? never : K) : K }[keyof Ours];
/** Compiles only when `M` is never: a misfit names its field in the compile error. */
type Fits<M extends never> = M;
export type SimulatorTypesFitStripe = [
  Fits<Misfits<StripePaymentIntent, Stripe.PaymentIntent>>,
  Fits<Misfits<StripeChargeObject, Stripe.Charge>>,
  Fits<Misfits<Omit<StripeEvent, 'data' | 'type'>, Stripe.Event>>,
];

describe('the Stripe contract', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  const stripe = (method: 'GET' | 'POST', path: string, body?: string) =>
    fetch(`${stack.sim.apiUrl}${path}`, {
      method,
      headers: { Authorization: 'Bearer sk_test_simulator', ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> & { data?: Array<Record<string, unknown>> } }));

  it('pins Stripe-Version to the version of the official types, by default and on the wire', async () => {
    expect(STRIPE_API_VERSION_PINNED).toBe(Stripe.API_VERSION);
    expect(loadConfig({}).STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    const gateway = new StripeGateway({ apiBase: stack.sim.apiUrl, secretKey: 'sk_test_simulator', connectTimeoutMs: 1000, readTimeoutMs: 5000 });
    const key = randomUUID();
    const body = gateway.encodeCharge({ attemptId: randomUUID(), chargeId: randomUUID(), idempotencyKey: key, amountCents: 1000, currency: 'usd', customerId: 'cus_contract', paymentMethodId: 'pm_card_visa' });
    expect((await gateway.createCharge(key, body)).kind).toBe('response');
    const [sent] = stack.sim.requests(key);
    expect(sent.headers['stripe-version']).toBe(Stripe.API_VERSION);
  });

  it('answers every route the adapter uses with fields Stripe declares, and nothing else', async () => {
    const intentFields = declaredFields('PaymentIntents.d.ts', 'PaymentIntent');
    const charge = await createCharge(stack);
    const view = await submit(stack, charge.id);
    const [intent] = stack.sim.intents({ attemptId: view.attempts[0].id });
    const retrieved = await stripe('GET', `/v1/payment_intents/${intent.id}`);
    expect(retrieved.status).toBe(200);
    expect(undeclared(retrieved.json, intentFields)).toEqual([]);
    const listed = await stripe('GET', `/v1/payment_intents?customer=${charge.customerId}&limit=10`);
    expect(listed.json.data!.length).toBeGreaterThan(0);
    for (const item of listed.json.data!) expect(undeclared(item, intentFields)).toEqual([]);

    const refunded = await stack.http.post(`/charges/${charge.id}/refunds`).set(stack.auth('merchant')).send({ amountCents: 100 });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    const refunds = await stripe('GET', `/v1/refunds?payment_intent=${intent.id}`);
    expect(refunds.json.data!.length).toBe(1);
    for (const item of refunds.json.data!) expect(undeclared(item, declaredFields('Refunds.d.ts', 'Refund'))).toEqual([]);

    const day = Math.floor(Date.now() / 1000);
    const txns = await stripe('GET', `/v1/balance_transactions?created[gte]=${day - 3600}&created[lt]=${day + 3600}&limit=100&expand[]=data.source`);
    expect(txns.status).toBe(200);
    const ours = txns.json.data!.filter((t) => (t.source as { payment_intent?: string } | null)?.payment_intent === intent.id);
    expect(ours.map((t) => t.reporting_category).sort()).toEqual(['charge', 'refund']);
    for (const t of ours) {
      expect(undeclared(t, declaredFields('BalanceTransactions.d.ts', 'BalanceTransaction'))).toEqual([]);
      const source = t.source as Record<string, unknown>;
      expect(undeclared(source, source.object === 'charge' ? declaredFields('Charges.d.ts', 'Charge') : declaredFields('Refunds.d.ts', 'Refund'))).toEqual([]);
    }
  });

  it('refuses a Stripe charge without a payment method at create, naming the field, and stores nothing', async () => {
    const body = newChargeBody();
    delete body.paymentMethodId;
    const refused = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_charge_field', details: { provider: 'stripe', field: 'paymentMethodId' } });
    expect(await stack.db.query(`SELECT id FROM charges WHERE order_id = $1`, [body.orderId])).toEqual([]);
  });

  it('refuses to submit a Stripe charge stored without one, before anything is sent', async () => {
    const id = randomUUID();
    await stack.db.query(
      `INSERT INTO charges (id, merchant_id, order_id, amount_cents, currency, customer_id, provider, created_by) VALUES ($1, $2, $3, 1000, 'usd', 'cus_legacy', 'stripe', 'test')`,
      [id, stack.merchantId, `legacy-${id}`],
    );
    const creates = stack.sim.stats().intentsCreated;
    const refused = await stack.http.post(`/charges/${id}/submit`).set(stack.auth('merchant'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_charge_field', details: { field: 'paymentMethodId' } });
    expect(stack.sim.stats().intentsCreated).toBe(creates);
    expect(await stack.db.query(`SELECT id FROM attempts WHERE charge_id = $1`, [id])).toEqual([]);
  });

  it('fails, off-session, a card that asks the customer to authenticate, with the reason kept', async () => {
    const view = await submit(stack, (await createCharge(stack, { paymentMethodId: 'pm_card_authenticationRequired' })).id);
    expect(view.status).toBe('failed');
    expect(view.attempts[0]).toMatchObject({ status: 'failed', lastError: expect.objectContaining({ code: 'authentication_required' }) });
  });
});
