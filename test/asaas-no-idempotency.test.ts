import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptSender } from '@app/attempts';
import { ChargeAttemptOpener } from '@app/charges';
import { AttemptEntity, WebhookEventEntity } from '@app/database';
import { GatewayRegistry, PROVIDERS } from '@app/gateways';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const profile = ASAAS_PROFILE;

describe('Asaas has no idempotency key: the danger is real, and the service never resends blindly', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { RESOLUTION_MAX_TRIES: '30' } });
  });
  afterAll(async () => stack.close());

  it('a plain resend of the very same request through the simulator creates a second payment', async () => {
    const charge = await createCharge(stack, profile.chargeBody());
    const opened = await stack.app.get(ChargeAttemptOpener).openOrReuse(charge.id, 'test');
    if (opened.kind !== 'open') throw new Error('expected an open attempt');
    const gateway = stack.app.get(GatewayRegistry).get('asaas');
    // Exactly what a naive client does after a timeout: send the same bytes again.
    const first = await gateway.createCharge(opened.attempt.idempotencyKey, opened.attempt.payload);
    const second = await gateway.createCharge(opened.attempt.idempotencyKey, opened.attempt.payload);
    expect([first.kind, second.kind]).toEqual(['response', 'response']);
    expect(stack.sim.stats().asaas.createsByExternalReference[opened.attempt.id]).toBe(2);
    expect(stack.sim.asaasPayments({ externalReference: opened.attempt.id })).toHaveLength(2);

    // The lookup reports both, and resolution hands the attempt to a person at once instead of picking one.
    const lookup = await gateway.findByReference({ attemptId: opened.attempt.id, chargeId: charge.id, customerId: charge.customerId, createdAt: opened.attempt.createdAt, providerChargeId: null });
    expect(lookup).toMatchObject({ kind: 'found', consistent: false });
    expect(lookup.kind === 'found' && lookup.charges).toHaveLength(2);
    await stack.db.query(`UPDATE attempts SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [opened.attempt.id]);
    await stack.app.get(OpenAttemptSweeper).sweep();
    const view = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'in_review', 10_000, 'the duplicate to reach review');
    expect(view.attempts[0].status).toBe('unknown');
  });

  it('the service does not: a lost response, repeated submits, the sweeper and the resolver leave one request and one payment', async () => {
    const body = profile.chargeBody();
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0].status).toBe('unknown');
    await Promise.all([submit(stack, charge.id), submit(stack, charge.id), stack.app.get(OpenAttemptSweeper).sweep()]);
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'resolution');
    for (let i = 0; i < 3; i += 1) await submit(stack, charge.id);
    expect(stack.sim.asaasRequests(attempts[0].id)).toHaveLength(1);
    expect(stack.sim.asaasPayments({ customer: body.customerId as string })).toHaveLength(1);
    expect(done.attempts).toHaveLength(1);
  });

  it('an attempt whose request may have arrived is never resent, even when it is still pending in the database', async () => {
    // A stray send job for an attempt whose last outcome was not proven unreceived (here: a 5xx recorded
    // by hand as if the result write had raced): the sender refuses and hands it to resolution.
    const charge = await createCharge(stack, profile.chargeBody());
    const opened = await stack.app.get(ChargeAttemptOpener).openOrReuse(charge.id, 'test');
    if (opened.kind !== 'open') throw new Error('expected an open attempt');
    await stack.db.query(
      `UPDATE attempts SET lease_expires_at = NULL, next_send_at = now(), last_error = '{"reason":"server_error","httpStatus":500}' WHERE id = $1`,
      [opened.attempt.id],
    );
    await stack.app.get(AttemptSender).send(opened.attempt.id, 'test');
    expect(stack.sim.asaasRequests(opened.attempt.id)).toHaveLength(0);
    const trail = await transitionsOf(stack, opened.attempt.id);
    expect(trail).toContain('pending→unknown:submit');
    const [row] = await stack.db.query(`SELECT detail FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'unknown'`, [opened.attempt.id]);
    expect(row.detail).toMatchObject({ reason: 'resend_without_idempotency' });
  });
});

describe('Asaas webhooks: the static access token, deduplication, and the same rules as Stripe', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true });
    stack.sim.configure({ asaasWebhook: { url: `${stack.baseUrl}/webhooks/asaas` } });
  });
  afterAll(async () => stack.close());

  it('a payment confirmed by webhook settles the unknown attempt; duplicates are acknowledged and ignored', async () => {
    const body = profile.chargeBody({ billingType: 'PIX' });
    stack.sim.configure({ asaasWebhook: { duplicates: 1 } });
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: body.customerId as string } }] });
    try {
      const charge = await createCharge(stack, body);
      const { attempts } = await submit(stack, charge.id);
      expect(attempts[0].status).toBe('unknown');
      const [payment] = stack.sim.asaasPayments({ externalReference: attempts[0].id });
      expect(payment.status).toBe('PENDING');
      // The customer pays the Pix.
      stack.sim.setAsaasPaymentStatus(payment.id, 'RECEIVED');
      await stack.sim.webhooksIdle();
      const view = await getCharge(stack, charge.id);
      expect(view.attempts[0]).toMatchObject({ status: 'succeeded', resolvedBy: 'webhook', providerChargeId: payment.id });
      const events = await stack.db.getRepository(WebhookEventEntity).findBy({ provider: 'asaas', attemptId: attempts[0].id });
      expect(events.map((e) => e.disposition).sort()).toEqual(['applied', 'no_change']);
      expect(stack.sim.asaasWebhookDeliveries().filter((d) => d.copy > 0).length).toBeGreaterThanOrEqual(1);
      expect(stack.sim.asaasWebhookDeliveries().every((d) => d.outcome === 'delivered')).toBe(true);
    } finally {
      stack.sim.configure({ asaasWebhook: { duplicates: 0 } });
    }
  });

  it('a forged token gets 400 and changes nothing', async () => {
    const body = profile.chargeBody({ billingType: 'PIX' });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    const [payment] = stack.sim.asaasPayments({ externalReference: attempts[0].id });
    await stack.sim.webhooksIdle();
    const delivery = await stack.sim.sendAsaasWebhook({ event: 'PAYMENT_RECEIVED', paymentId: payment.id, forged: true });
    expect(delivery).toMatchObject({ outcome: 'failed', httpStatus: 400, forged: true });
    const res = await stack.http.post('/webhooks/asaas').send({ id: 'evt_x', event: 'PAYMENT_RECEIVED', payment: { id: payment.id } });
    expect(res.status).toBe(400);
    expect((await getCharge(stack, charge.id)).attempts[0].status).toBe('unknown');
  });

  it('a payment received for an attempt we had failed is a late truth: kept, flagged and sent to a person', async () => {
    const body = profile.chargeBody({ billingType: 'BOLETO' });
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    const [payment] = stack.sim.asaasPayments({ externalReference: attempts[0].id });
    await stack.sim.webhooksIdle();
    // As if resolution had failed it as not found (a list that lagged past the window).
    await stack.db.query(`UPDATE attempts SET status = 'failed', resolved_at = now(), resolved_by = 'resolver' WHERE id = $1`, [attempts[0].id]);
    stack.sim.setAsaasPaymentStatus(payment.id, 'RECEIVED');
    await stack.sim.webhooksIdle();
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts[0].status).toBe('failed');
    expect(view.capturedBy).toEqual({ attemptId: attempts[0].id, providerChargeId: payment.id, late: true });
  });
});

describe('Asaas charges: fields the provider needs, refused with a 400 naming the field', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  it('422 currency_not_supported naming the currency Asaas does not take, and nothing stored', async () => {
    const body = profile.chargeBody({ currency: 'usd' });
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ code: 'currency_not_supported', details: { provider: 'asaas', currency: 'usd' } });
    const [{ count }] = await stack.db.query(`SELECT count(*)::int AS count FROM charges WHERE order_id = $1`, [body.orderId]);
    expect(count).toBe(0);
  });

  it.each([
    ['billingType', { billingType: undefined }],
    ['billingType', { billingType: 'CASH' }],
    ['dueDate', { dueDate: '02/12/2026' }],
  ])('400 naming %s, and nothing stored', async (field, overrides) => {
    const body = profile.chargeBody(overrides);
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(JSON.stringify(res.body.message)).toContain(field);
    const [{ count }] = await stack.db.query(`SELECT count(*)::int AS count FROM charges WHERE order_id = $1`, [body.orderId]);
    expect(count).toBe(0);
  });

  it('sends the amount as exact decimal reais, today (in RECONCILIATION_TZ) as due date unless given, and our attempt id as externalReference', async () => {
    const charge = await createCharge(stack, profile.chargeBody({ amountCents: 1999, billingType: 'PIX' }));
    const { attempts } = await submit(stack, charge.id);
    const [request] = stack.sim.asaasRequests(attempts[0].id);
    expect(request.rawBody).toContain('"value":19.99,');
    const sent = JSON.parse(request.rawBody);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    expect(sent).toMatchObject({ customer: charge.customerId, billingType: 'PIX', dueDate: today, externalReference: attempts[0].id });
    expect(request.headers['user-agent']).toMatch(/charge-once/);
    expect(request.headers.access_token).toBe('[redacted]');
    const dated = await createCharge(stack, profile.chargeBody({ billingType: 'BOLETO', dueDate: '2027-01-15' }));
    const { attempts: datedAttempts } = await submit(stack, dated.id);
    expect(JSON.parse(stack.sim.asaasRequests(datedAttempts[0].id)[0].rawBody).dueDate).toBe('2027-01-15');
  });

  // Each queue's lookups spend their own provider's budget: test/provider-query-pacer.test.ts.
  it('each provider has its own resolution queue', async () => {
    const registry = stack.app.get(GatewayRegistry);
    expect([...PROVIDERS].sort()).toEqual(registry.attemptProviders().sort());
    expect(registry.get('asaas').capabilities).toMatchObject({ nativeIdempotency: false, lookupByReference: 'lagging_search' });
  });
});

describe('UnknownAttemptResolver and Asaas lookups', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true, env: { ASAAS_CONSISTENCY_WINDOW_MS: '60000' } });
  });
  afterAll(async () => stack.close());

  it('inside the consistency window a lagging "not found" only waits; the attempt is never failed', async () => {
    const body = profile.chargeBody();
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId: body.customerId as string } }] });
    stack.sim.configure({ asaasListLagMs: 60_000 });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    const decision = await stack.app.get(UnknownAttemptResolver).resolve(attempts[0].id);
    expect(decision).toMatchObject({ action: 'wait', reason: 'not_found_inside_window' });
    const row = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attempts[0].id });
    expect(row.status).toBe('unknown');
  });
});
