import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderHttpClient } from '@app/gateways';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, stripeCall, waitFor } from '../simulator-test-client.js';

let sim: Simulator;
const quickClient = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 100 });

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function sendCreate(key: string, body = chargeBody()) {
  return quickClient.send({
    method: 'POST',
    url: `${sim.apiUrl}/v1/payment_intents`,
    headers: { Authorization: 'Bearer sk_test', 'Idempotency-Key': key },
    body,
  });
}

describe('create faults, as the simulator applies them', () => {
  it('hang_before_create creates nothing and leaves the key unused', async () => {
    sim.setFaults({ rules: [{ fault: 'hang_before_create' }] });

    const hung = await sendCreate('k-hang-before');
    const retried = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-hang-before' });

    expect(hung.kind).toBe('no_response');
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(sim.stats()).toMatchObject({ faultsInjected: { hang_before_create: 1 }, createsByIdempotencyKey: { 'k-hang-before': 1 } });
  });

  it('hang_after_create keeps the key in flight until the hung client leaves, then replays the success', async () => {
    sim.setFaults({ rules: [{ fault: 'hang_after_create' }] });
    const hung = sendCreate('k-hang-after');
    // Logged means executed: everything after reading the body happens in the same tick.
    await waitFor(() => sim.requests('k-hang-after').length === 1);

    const whileHung = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-hang-after' });
    expect(await hung).toMatchObject({ kind: 'no_response' });
    await waitFor(() => sim.stats().hangingConnections === 0);
    const afterwards = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-hang-after' });

    expect(whileHung).toMatchObject({ status: 409, json: { error: { code: 'idempotency_key_in_use' } } });
    expect(afterwards.status).toBe(200);
    expect(afterwards.headers['idempotent-replayed']).toBe('true');
    expect(sim.stats().createsByIdempotencyKey).toEqual({ 'k-hang-after': 1 });
  });

  it('destroys a hung connection after hangMs even if the client waits', async () => {
    sim.configure({ hangMs: 50 });
    sim.setFaults({ rules: [{ fault: 'hang_before_create' }] });
    const patient = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 5_000 });

    const result = await patient.send({
      method: 'POST',
      url: `${sim.apiUrl}/v1/payment_intents`,
      headers: { Authorization: 'Bearer sk_test' },
      body: chargeBody(),
    });

    expect(result).toMatchObject({ kind: 'no_response', errorCode: 'ECONNRESET' });
    expect(result.durationMs).toBeLessThan(1_000);
    expect(sim.stats().hangingConnections).toBe(0);
  });

  it('matches rules by attempt id and leaves other requests alone', async () => {
    sim.setFaults({ rules: [{ fault: '500_before_create', match: { attemptId: 'att_target' } }] });

    const other = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ attemptId: 'att_other' }) });
    const target = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody({ attemptId: 'att_target' }) });

    expect([other.status, target.status]).toEqual([200, 500]);
  });

  it('does not spend an execution fault on a replay', async () => {
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-replayed' });
    sim.setFaults({ rules: [{ fault: '500_after_create' }] });

    const replay = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(), key: 'k-replayed' });

    expect(replay.status).toBe(200);
    expect(sim.pendingFaults()).toHaveLength(1);
    expect(sim.stats().faultsInjected).toEqual({});
  });

  it('injects the same faults for the same seed in random mode', async () => {
    const run = async () => {
      await sim.reset();
      sim.setFaults({ random: { seed: 1234, rates: { '429': 0.3, '500_after_create': 0.3 } } });
      const statuses: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        const body = chargeBody({ attemptId: `att_${index}` });
        statuses.push((await stripeCall(sim, 'POST', '/v1/payment_intents', { body, key: `k-${index}` })).status);
      }
      return { statuses, faults: sim.stats().faultsInjected };
    };

    const first = await run();
    const second = await run();

    expect(second).toEqual(first);
    expect(first.statuses).toContain(429);
    expect(first.statuses).toContain(500);
    expect(first.statuses).toContain(200);
  });
});
