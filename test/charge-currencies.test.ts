import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, submit } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 36 item 3: a charge its provider would certainly refuse for its currency or amount is refused at
 * `POST /charges` (422, the rule named), never stored and never sent; one it takes is sent in the currency's own
 * minor units.
 */
describe('charge currencies as the providers see them', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.close());

  /** Rows that a create or submit would write, and the creates the simulator saw. */
  async function written(): Promise<{ charges: number; attempts: number; idempotency: number; sent: number }> {
    const [{ charges, attempts, idempotency }] = await stack.db.query(
      `SELECT (SELECT count(*)::int FROM charges) AS charges, (SELECT count(*)::int FROM attempts) AS attempts,
              (SELECT count(*)::int FROM idempotency_records) AS idempotency`,
    );
    return { charges, attempts, idempotency, sent: stack.sim.requests().length };
  }

  async function refused(body: Record<string, unknown>, withKey = false) {
    const before = await written();
    const post = stack.http.post('/charges').set(stack.auth('merchant'));
    const res = await (withKey ? post.set('Idempotency-Key', randomUUID()) : post).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(await written()).toEqual(before);
    return res.body as { code: string; details: Record<string, unknown> };
  }

  it.each([false, true])('refuses xxx (ISO 4217 "no currency") with 422 currency_not_supported and writes nothing (Idempotency-Key: %s)', async (withKey) => {
    const body = await refused(newChargeBody({ currency: 'xxx' }), withKey);
    expect(body).toMatchObject({ code: 'currency_not_supported', details: { provider: 'stripe', currency: 'xxx', reason: 'not_iso_money' } });
  });

  it('refuses three letters that name no currency, and gold, the same way', async () => {
    for (const currency of ['abc', 'xau']) {
      expect(await refused(newChargeBody({ currency }))).toMatchObject({ code: 'currency_not_supported', details: { currency } });
    }
  });

  it('refuses usd 49, below Stripe\'s minimum, naming the minimum', async () => {
    const body = await refused(newChargeBody({ currency: 'usd', amountCents: 49 }));
    expect(body).toMatchObject({ code: 'amount_below_minimum', details: { provider: 'stripe', currency: 'usd', minimumAmount: 50 } });
  });

  it('sends a jpy charge of 500 to Stripe as 500 (zero-decimal: ¥500, not ¥5.00)', async () => {
    const view = await submit(stack, (await createCharge(stack, { currency: 'jpy', amountCents: 500 })).id);
    expect(view).toMatchObject({ status: 'succeeded', amountCents: 500, currency: 'jpy' });
    const [sent] = stack.sim.requests(view.attempts[0].idempotencyKey);
    expect(new URLSearchParams(sent.rawBody).get('amount')).toBe('500');
    expect(stack.sim.intents({ attemptId: view.attempts[0].id })).toEqual([expect.objectContaining({ amount: 500, currency: 'jpy', status: 'succeeded' })]);
  });

  it('refuses bhd 1255 (three-decimal: Stripe takes only amounts ending in 0) and sends bhd 1250', async () => {
    const body = await refused(newChargeBody({ currency: 'bhd', amountCents: 1255 }));
    expect(body).toMatchObject({ code: 'amount_not_representable', details: { provider: 'stripe', currency: 'bhd', multipleOf: 10 } });
    const view = await submit(stack, (await createCharge(stack, { currency: 'bhd', amountCents: 1250 })).id);
    expect(view.status).toBe('succeeded');
    expect(stack.sim.intents({ attemptId: view.attempts[0].id })).toEqual([expect.objectContaining({ amount: 1250, currency: 'bhd' })]);
  });

  it('refuses eur for Asaas, which moves reais only', async () => {
    const body = await refused(ASAAS_PROFILE.chargeBody({ currency: 'eur' }));
    expect(body).toMatchObject({ code: 'currency_not_supported', details: { provider: 'asaas', currency: 'eur', reason: 'not_taken_by_provider' } });
  });

  it('refuses a charge for Efí, which takes payouts only, as an unknown charge provider', async () => {
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody({ currency: 'eur', provider: 'efi' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_provider', details: { provider: 'efi' } });
  });

  it('refuses to submit a charge stored before the rule (in xxx), before anything is opened or sent', async () => {
    const id = randomUUID();
    await stack.db.query(
      `INSERT INTO charges (id, merchant_id, order_id, amount_cents, currency, customer_id, payment_method_id, provider, created_by)
       VALUES ($1, $2, $3, 1000, 'xxx', 'cus_legacy', 'pm_card_visa', 'stripe', 'test')`,
      [id, stack.merchantId, `legacy-${id}`],
    );
    const sent = stack.sim.requests().length;
    const res = await stack.http.post(`/charges/${id}/submit`).set(stack.auth('merchant'));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'currency_not_supported', details: { currency: 'xxx' } });
    expect(stack.sim.requests().length).toBe(sent);
    expect(await stack.db.query(`SELECT id FROM attempts WHERE charge_id = $1`, [id])).toEqual([]);
  });

  it('has the simulator refuse what Stripe refuses, from the same table', async () => {
    const create = (form: string) =>
      fetch(`${stack.sim.apiUrl}/v1/payment_intents`, {
        method: 'POST',
        headers: { Authorization: 'Bearer sk_test_simulator', 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': randomUUID() },
        body: `${form}&customer=cus_sim&payment_method=pm_card_visa&confirm=true&allowed_payment_method_types[0]=card`,
      }).then(async (r) => ({ status: r.status, error: ((await r.json()) as { error?: { code?: string; param?: string } }).error }));
    expect(await create('amount=5000&currency=xxx')).toMatchObject({ status: 400, error: { param: 'currency' } });
    expect(await create('amount=1255&currency=bhd')).toMatchObject({ status: 400, error: { param: 'amount' } });
    expect(await create('amount=49&currency=usd')).toMatchObject({ status: 400, error: { code: 'amount_too_small' } });
    expect(await create('amount=500&currency=jpy')).toMatchObject({ status: 200 });
  });
});
