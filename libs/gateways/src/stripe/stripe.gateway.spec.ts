import http from 'node:http';
import net from 'node:net';
import { inspect } from 'node:util';
import type { AddressInfo } from 'node:net';
import { startSimulator } from '@app/simulator';
import type { Simulator } from '@app/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayCallResult } from '../gateway-call.result.js';
import type { AttemptReference, ChargeRequest } from '../charge-gateway.port.js';
import { StripeGateway } from './stripe.gateway.js';
import type { StripeGatewaySettings } from './stripe.gateway.js';

const SECRET_KEY = 'sk_test_never_leak_this_key';

let sim: Simulator;
let sequence = 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, controlPort: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());
// Whatever a test did, no key may ever have created two intents.
afterEach(() => {
  for (const [key, count] of Object.entries(sim.stats().createsByIdempotencyKey)) {
    expect(count, `intents created under key ${key}`).toBeLessThanOrEqual(1);
  }
});

function gateway(overrides: Partial<StripeGatewaySettings> = {}): StripeGateway {
  return new StripeGateway({
    apiBase: sim.apiUrl,
    secretKey: SECRET_KEY,
    connectTimeoutMs: 500,
    readTimeoutMs: 1_000,
    ...overrides,
  });
}

function newCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  sequence += 1;
  return {
    attemptId: `att_${sequence}`,
    chargeId: `chg_${sequence}`,
    idempotencyKey: `key_${sequence}_${Date.now()}`,
    amountCents: 2500,
    currency: 'usd',
    customerId: `cus_${sequence}`,
    paymentMethodId: 'pm_card_visa',
    ...overrides,
  };
}

function send(stripe: StripeGateway, charge: ChargeRequest): Promise<GatewayCallResult> {
  return stripe.createCharge(charge.idempotencyKey, stripe.encodeCharge(charge));
}

function referenceTo(charge: ChargeRequest, providerChargeId: string | null = null): AttemptReference {
  const { attemptId, chargeId, customerId } = charge;
  return { attemptId, chargeId, customerId, createdAt: new Date(), providerChargeId };
}

function expectNoSecret(value: unknown): void {
  expect(JSON.stringify(value)).not.toContain(SECRET_KEY);
}

describe('StripeGateway against the simulator', () => {
  it('declares Stripe’s capabilities, with the configurable numbers taken from its settings', () => {
    expect(gateway({ queryRatePerSecond: 5 }).capabilities).toEqual({
      nativeIdempotency: true,
      keyLifetimeMs: 86_400_000,
      lookupByReference: 'consistent_list',
      // A consistent list does not lag: only the resolver's grace holds a "not found" back.
      consistencyWindowMs: 0,
      queryRatePerSecond: 5,
      statementSources: ['api', 'report'],
    });
  });

  it('creates a charge that succeeds, sending the encoded body and key exactly as given', async () => {
    const stripe = gateway();
    const charge = newCharge();

    const result = await send(stripe, charge);

    expect(result).toMatchObject({ kind: 'response', httpStatus: 200, replayed: false, providerOutcome: 'succeeded', error: null });
    expect(result.kind === 'response' && result.providerChargeId).toMatch(/^pi_/);
    const [logged] = sim.requests(charge.idempotencyKey);
    expect(logged.rawBody).toBe(stripe.encodeCharge(charge));
    expect(logged.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sim.stats().createsByIdempotencyKey).toEqual({ [charge.idempotencyKey]: 1 });
    expectNoSecret(result);
  });

  it('reports a decline as a 402 failure with its decline code and the intent id', async () => {
    const charge = newCharge({ paymentMethodId: 'pm_card_insufficientFunds' });

    const result = await send(gateway(), charge);

    expect(result).toMatchObject({
      kind: 'response',
      httpStatus: 402,
      providerOutcome: 'failed',
      error: { type: 'card_error', code: 'card_declined', declineCode: 'insufficient_funds' },
    });
    expect(result.kind === 'response' && result.providerChargeId).toBe(sim.intents({ attemptId: charge.attemptId })[0].id);
  });

  it('reports reset_before_read as no_response, with nothing created', async () => {
    sim.setFaults({ rules: [{ fault: 'reset_before_read' }] });
    const charge = newCharge();

    const result = await send(gateway(), charge);

    expect(result).toMatchObject({ kind: 'no_response' });
    expect(sim.stats()).toMatchObject({ faultsInjected: { reset_before_read: 1 }, intentsCreated: 0 });
    expect(sim.requests(charge.idempotencyKey)).toHaveLength(1);
  });

  it('reports hang_after_create as no_response after the read timeout, while the provider holds one intent', async () => {
    sim.setFaults({ rules: [{ fault: 'hang_after_create' }] });
    const charge = newCharge();

    const result = await send(gateway({ readTimeoutMs: 200 }), charge);

    expect(result).toMatchObject({ kind: 'no_response', errorCode: 'READ_TIMEOUT' });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(sim.intents({ attemptId: charge.attemptId })).toHaveLength(1);
    expect(sim.stats()).toMatchObject({ faultsInjected: { hang_after_create: 1 }, createsByIdempotencyKey: { [charge.idempotencyKey]: 1 } });
  });

  it.each([
    ['500_before_create', 0],
    ['500_after_create', 1],
  ] as const)('reports %s as a 500, and a resend with the key replays the 500 (intents: %i)', async (fault, intents) => {
    sim.setFaults({ rules: [{ fault }] });
    const stripe = gateway();
    const charge = newCharge();

    const first = await send(stripe, charge);
    const resend = await send(stripe, charge);

    expect(first).toMatchObject({ kind: 'response', httpStatus: 500, replayed: false, error: { type: 'api_error' } });
    expect(resend).toMatchObject({ kind: 'response', httpStatus: 500, replayed: true, body: first.kind === 'response' && first.body });
    expect(sim.intents({ attemptId: charge.attemptId })).toHaveLength(intents);
    expect(sim.stats().faultsInjected).toEqual({ [fault]: 1 });
  });

  it('reports a 429 with nothing created, and a resend with the same key then creates once', async () => {
    sim.setFaults({ rules: [{ fault: '429' }] });
    const stripe = gateway();
    const charge = newCharge();

    const limited = await send(stripe, charge);
    const retried = await send(stripe, charge);

    expect(limited).toMatchObject({ kind: 'response', httpStatus: 429, error: { type: 'rate_limit_error' } });
    expect(retried).toMatchObject({ kind: 'response', httpStatus: 200, replayed: false, providerOutcome: 'succeeded' });
    expect(sim.stats()).toMatchObject({ faultsInjected: { '429': 1 }, createsByIdempotencyKey: { [charge.idempotencyKey]: 1 } });
  });

  it('reports an injected 409 as idempotency_key_in_use without processing', async () => {
    sim.setFaults({ rules: [{ fault: '409' }] });

    const result = await send(gateway(), newCharge());

    expect(result).toMatchObject({ kind: 'response', httpStatus: 409, error: { code: 'idempotency_key_in_use' } });
    expect(sim.stats()).toMatchObject({ faultsInjected: { '409': 1 }, intentsCreated: 0 });
  });

  it('gets 409 for the second of two concurrent creates with one key, and one intent in all', async () => {
    sim.configure({ createLatencyMs: 300 });
    const stripe = gateway();
    const charge = newCharge();

    const results = await Promise.all([send(stripe, charge), send(stripe, charge)]);

    const statuses = results.map((result) => (result.kind === 'response' ? result.httpStatus : result.kind));
    expect(statuses.sort()).toEqual([200, 409]);
    expect(sim.stats().createsByIdempotencyKey).toEqual({ [charge.idempotencyKey]: 1 });
  });

  it('reports connect_failed while the provider refuses connections, and succeeds once it accepts again', async () => {
    const stripe = gateway();
    const charge = newCharge();

    await sim.refuseConnections();
    const refused = await send(stripe, charge);
    await sim.acceptConnections();
    const accepted = await send(stripe, charge);

    expect(refused).toMatchObject({ kind: 'connect_failed', errorCode: 'ECONNREFUSED' });
    expect(accepted).toMatchObject({ kind: 'response', httpStatus: 200, replayed: false });
    expect(sim.stats().faultsInjected).toEqual({ refuse_connections: 1 });
    expect(sim.requests(charge.idempotencyKey)).toHaveLength(1);
  });

  it('gets 400 idempotency_error when the same key carries a changed body', async () => {
    const stripe = gateway();
    const charge = newCharge();
    await send(stripe, charge);

    const changed = await stripe.createCharge(charge.idempotencyKey, stripe.encodeCharge({ ...charge, amountCents: 9999 }));

    expect(changed).toMatchObject({ kind: 'response', httpStatus: 400, providerChargeId: null, error: { type: 'idempotency_error' } });
    expect(sim.stats().intentsCreated).toBe(1);
  });

  it('finds an intent through the consistent list at once, never asking the lagging search', async () => {
    sim.configure({ searchLagMs: 60_000 });
    const stripe = gateway();
    const charge = newCharge();
    await send(stripe, charge);

    const listed = await stripe.findByReference(referenceTo(charge));

    expect(listed).toMatchObject({ kind: 'found', consistent: true });
    expect(listed.kind === 'found' && listed.charges).toMatchObject([
      { outcome: 'succeeded', amountCents: 2500, currency: 'usd', attemptId: charge.attemptId },
    ]);
    expect(sim.stats().requests).toMatchObject({ lists: 1, searches: 0 });
    expectNoSecret([listed]);
  });

  it('answers not_found with confidence when the list holds nothing for the attempt', async () => {
    const stripe = gateway();
    const other = newCharge();
    await send(stripe, { ...newCharge(), customerId: other.customerId });

    expect(await stripe.findByReference(referenceTo(other))).toMatchObject({ kind: 'not_found', consistent: true });
  });

  it('pages through the list to find an older intent among many', async () => {
    const stripe = gateway();
    const target = newCharge();
    await send(stripe, target);
    for (let index = 0; index < 120; index += 1) await send(stripe, { ...newCharge(), customerId: target.customerId });

    const found = await stripe.findByReference(referenceTo(target));

    expect(found).toMatchObject({ kind: 'found', consistent: true });
    expect(sim.stats().requests.lists).toBe(2);
  });

  it('reports every intent of a duplicated attempt, so the caller sees the double charge', async () => {
    const stripe = gateway();
    const charge = newCharge();
    await send(stripe, charge);
    await send(stripe, { ...charge, idempotencyKey: `${charge.idempotencyKey}-second` });

    const found = await stripe.findByReference(referenceTo(charge));

    expect(found.kind === 'found' && found.charges).toHaveLength(2);
  });

  it('retrieves directly when the intent id is already known', async () => {
    const stripe = gateway();
    const charge = newCharge({ paymentMethodId: 'pm_card_chargeDeclined' });
    const created = await send(stripe, charge);
    const intentId = created.kind === 'response' ? created.providerChargeId : null;

    const found = await stripe.findByReference(referenceTo(charge, intentId));

    expect(found).toMatchObject({ kind: 'found', consistent: true, charges: [{ providerChargeId: intentId, outcome: 'failed' }] });
    expect(sim.stats().requests).toMatchObject({ retrieves: 1, lists: 0 });
  });

  it('retrieves any intent by id with its amount, currency and attempt reference, for a reviewer to check', async () => {
    const stripe = gateway();
    const charge = newCharge();
    const created = await send(stripe, charge);
    const intentId = created.kind === 'response' ? created.providerChargeId : null;

    const found = await stripe.retrieveCharge(intentId!);

    expect(found).toMatchObject({ kind: 'found', charge: { providerChargeId: intentId, outcome: 'succeeded', amountCents: 2500, currency: 'usd', attemptId: charge.attemptId } });
    expect(JSON.stringify(found)).not.toContain('client_secret');
    expect(sim.stats().requests).toMatchObject({ retrieves: 1, lists: 0 });
  });

  it("answers not_found only on Stripe's 404, and a 500 on retrieve as an error that proves nothing", async () => {
    expect(await gateway().retrieveCharge('pi_does_not_exist')).toMatchObject({ kind: 'not_found' });
    sim.setFaults({ rules: [{ fault: '500', on: 'query' }] });
    expect(await gateway().retrieveCharge('pi_does_not_exist')).toMatchObject({ kind: 'error', httpStatus: 500 });
    expect(sim.stats().faultsInjected).toEqual({ query_500: 1 });
  });

  it('treats a known intent id that belongs to another attempt as an error, not a match', async () => {
    const stripe = gateway();
    const created = await send(stripe, newCharge());
    const intentId = created.kind === 'response' ? created.providerChargeId : null;

    expect(await stripe.findByReference(referenceTo(newCharge(), intentId))).toMatchObject({ kind: 'error' });
  });

  it.each([['500'], ['429']] as const)('reports a %s on a lookup as an error that proves nothing', async (fault) => {
    sim.setFaults({ rules: [{ fault, on: 'query' }] });

    const result = await gateway().findByReference(referenceTo(newCharge()));

    expect(result).toMatchObject({ kind: 'error', httpStatus: Number(fault) });
    expect(sim.stats().faultsInjected).toEqual({ [`query_${fault}`]: 1 });
    expectNoSecret(result);
  });

  it('reports a hung lookup as an error after the read timeout', async () => {
    sim.setFaults({ rules: [{ fault: 'hang', on: 'query' }] });

    const result = await gateway({ readTimeoutMs: 100 }).findByReference(referenceTo(newCharge()));

    expect(result).toMatchObject({ kind: 'error', httpStatus: null });
    expect(result.kind === 'error' && result.message).toContain('READ_TIMEOUT');
  });

  it('treats a list page that says it has more but whose last item cannot be read as an error, never as "not found"', async () => {
    // A malformed page the simulator never serves: a real server answering exactly that.
    const server = http.createServer((_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ object: 'list', has_more: true, data: [{ object: 'payment_intent', metadata: {} }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await gateway({ apiBase: `http://127.0.0.1:${port}` }).findByReference(referenceTo(newCharge()));
      expect(result).toMatchObject({ kind: 'error' });
      expect(result.kind === 'error' && result.message).toContain('last item has no id');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reports connect_failed for a create, and an error for a lookup, against a port with nothing listening', async () => {
    const probe = net.createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    const nowhere = gateway({ apiBase: `http://127.0.0.1:${port}` });

    const created = await send(nowhere, newCharge());
    const looked = await nowhere.findByReference(referenceTo(newCharge()));

    expect(created).toMatchObject({ kind: 'connect_failed', errorCode: 'ECONNREFUSED' });
    expect(looked).toMatchObject({ kind: 'error', httpStatus: null });
    expectNoSecret([created, looked]);
  });

  it('keeps the secret key out of its own printed or serialised form', () => {
    const stripe = gateway();

    expectNoSecret(stripe);
    expect(inspect(stripe, { depth: 5, showHidden: true })).not.toContain(SECRET_KEY);
  });

  it('reports a missing API key as a 401 authentication error', async () => {
    const stripe = gateway({ secretKey: '' });

    const result = await send(stripe, newCharge());

    expect(result).toMatchObject({ kind: 'response', httpStatus: 401, error: { type: 'authentication_error' } });
  });
});
