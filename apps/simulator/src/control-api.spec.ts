import { ProviderHttpClient } from '@app/gateways';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from './start-simulator.js';
import type { Simulator } from './simulator.js';
import { chargeBody, controlCall, stripeCall } from './simulator-test-client.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => controlCall(sim, 'POST', '/_sim/reset'));

describe('the simulator control API (over HTTP)', () => {
  it('reports stats, requests and intents for what the API received', async () => {
    const body = chargeBody({ attemptId: 'att_ctl' });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: 'k-ctl' });

    const stats = await controlCall(sim, 'GET', '/_sim/stats');
    const requests = await controlCall(sim, 'GET', '/_sim/requests?idempotencyKey=k-ctl');
    const intents = await controlCall(sim, 'GET', '/_sim/intents?attemptId=att_ctl');

    expect(stats.json).toMatchObject({ intentsCreated: 1, createsByIdempotencyKey: { 'k-ctl': 1 }, requests: { creates: 1 } });
    expect(requests.json).toMatchObject([{ idempotencyKey: 'k-ctl', rawBody: body }]);
    expect(requests.json[0].headers.authorization).toBe('[redacted]');
    expect(intents.json).toMatchObject([{ metadata: { attempt_id: 'att_ctl' }, status: 'succeeded' }]);
  });

  it('merges configuration and rejects invalid values with 400', async () => {
    const updated = await controlCall(sim, 'POST', '/_sim/config', { searchLagMs: 5000, webhook: { duplicates: 1 } });
    const invalid = await controlCall(sim, 'POST', '/_sim/config', { webhook: { dropRate: 2 } });

    expect(updated.json).toMatchObject({ searchLagMs: 5000, hangMs: 60_000, webhook: { duplicates: 1, reorder: false } });
    expect(invalid.status).toBe(400);
    expect(sim.config().webhook.dropRate).toBe(0);
  });

  it('sets a fault plan, shows what is left of it, and applies it to creates', async () => {
    const set = await controlCall(sim, 'POST', '/_sim/faults', { rules: [{ fault: '429', times: 2 }] });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody() });
    const pending = await controlCall(sim, 'GET', '/_sim/faults');

    expect(set.json.rules).toMatchObject([{ fault: '429', remaining: 2 }]);
    expect(pending.json).toMatchObject([{ fault: '429', remaining: 1 }]);
    expect(sim.stats().faultsInjected).toEqual({ '429': 1 });
  });

  it('refuses and accepts API connections on the same port while staying reachable itself', async () => {
    const probe = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 500 });
    const apiUrl = sim.apiUrl;

    await controlCall(sim, 'POST', '/_sim/listener', { accepting: false });
    const refused = await probe.send({ method: 'GET', url: `${apiUrl}/v1/payment_intents` });
    const stats = await controlCall(sim, 'GET', '/_sim/stats');
    await controlCall(sim, 'POST', '/_sim/listener', { accepting: true });
    const accepted = await stripeCall(sim, 'GET', '/v1/payment_intents');

    expect(refused).toMatchObject({ kind: 'connect_failed', errorCode: 'ECONNREFUSED' });
    expect(stats.json.faultsInjected).toEqual({ refuse_connections: 1 });
    expect(sim.apiUrl).toBe(apiUrl);
    expect(accepted.status).toBe(200);
  });

  it('moves an intent to another status, and never out of a final one', async () => {
    const created = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ paymentMethod: 'pm_sim_processing' }) });
    expect(created.json.status).toBe('processing');

    const unknown = await controlCall(sim, 'POST', `/_sim/intents/${created.json.id}/status`, { status: 'exploded' });
    const moved = await controlCall(sim, 'POST', `/_sim/intents/${created.json.id}/status`, { status: 'canceled' });
    const revived = await controlCall(sim, 'POST', `/_sim/intents/${created.json.id}/status`, { status: 'succeeded' });

    expect(unknown.status).toBe(400);
    expect(moved.json).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer' });
    // Stripe never captures a canceled intent: the simulator refuses to pretend it did.
    expect(revived.status).toBe(400);
    expect((await stripeCall(sim, 'GET', `/v1/payment_intents/${created.json.id}`)).json.status).toBe('canceled');
    const succeeded = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ attemptId: 'att_final' }) });
    expect((await controlCall(sim, 'POST', `/_sim/intents/${succeeded.json.id}/status`, { status: 'requires_payment_method' })).status).toBe(400);
  });

  it('reset forgets intents, keys, faults and counters, and reopens a refused port', async () => {
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-reset' });
    await controlCall(sim, 'POST', '/_sim/faults', { rules: [{ fault: '429' }] });
    await controlCall(sim, 'POST', '/_sim/listener', { accepting: false });

    await controlCall(sim, 'POST', '/_sim/reset');
    const again = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-reset' });

    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(sim.stats()).toMatchObject({ intentsCreated: 1, faultsInjected: {} });
  });

  it('stamps every query (a GET under /v1/) as it arrives only when asked to, and forgets them on reset', async () => {
    const recording = await startSimulator({ recordQueryArrivals: true });
    try {
      const intent = await stripeCall(recording, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-arr' });
      await stripeCall(recording, 'GET', `/v1/payment_intents/${intent.json.id}`);
      await stripeCall(recording, 'GET', '/v1/payment_intents?customer=cus_none');
      const arrivals = await controlCall(recording, 'GET', '/_sim/arrivals');
      expect(arrivals.json.recording).toBe(true);
      expect(arrivals.json.at).toHaveLength(2);
      expect(arrivals.json.at[1]).toBeGreaterThanOrEqual(arrivals.json.at[0]);
      await controlCall(recording, 'POST', '/_sim/reset');
      expect(recording.queryArrivals()).toEqual({ recording: true, at: [] });
    } finally {
      await recording.close();
    }
    await stripeCall(sim, 'GET', '/v1/payment_intents?customer=cus_none');
    expect((await controlCall(sim, 'GET', '/_sim/arrivals')).json).toEqual({ recording: false, at: [] });
  });

  it('answers unknown routes with 404 and broken JSON with 400', async () => {
    expect((await controlCall(sim, 'GET', '/_sim/nothing')).status).toBe(404);
    const broken = await new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 500 }).send({
      method: 'POST',
      url: `${sim.controlUrl}/_sim/config`,
      body: '{not json',
    });
    expect(broken).toMatchObject({ kind: 'response', status: 400 });
  });
});
