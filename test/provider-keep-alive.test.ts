import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyGatewayResponse } from '@app/attempts';
import { StripeGateway } from '@app/gateways';
import { startSimulator, type Simulator } from '@app/simulator';

describe('kept-alive provider connections', () => {
  let sim: Simulator;
  let stripe: StripeGateway;
  beforeAll(async () => {
    sim = await startSimulator();
    stripe = new StripeGateway({ apiBase: sim.apiUrl, secretKey: 'sk_test_keep_alive', connectTimeoutMs: 1_000, readTimeoutMs: 2_000 });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const create = (key: string) => {
    const attemptId = randomUUID();
    const body = stripe.encodeCharge({ attemptId, chargeId: randomUUID(), idempotencyKey: key, amountCents: 1000, currency: 'usd', customerId: 'cus_keep_alive', paymentMethodId: 'pm_card_visa' });
    return stripe.createCharge(key, body).then(classifyGatewayResponse);
  };

  it('counts a reused connection closed under a request as no_response (unknown), never connect_failed', async () => {
    const first = `key-${randomUUID()}`;
    expect(await create(first)).toMatchObject({ status: 'succeeded' });
    // The server closes the idle connection just as the next create goes out on it.
    sim.setFaults({ rules: [{ fault: 'close_kept_alive' }] });

    const second = `key-${randomUUID()}`;
    const outcome = await create(second);

    // The fault strikes only a reused connection: its count proves the second create rode the first one's socket.
    expect(sim.stats().faultsInjected).toMatchObject({ close_kept_alive: 1 });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'no_response' });
    expect(sim.stats().createsByIdempotencyKey).toEqual({ [first]: 1 });
    expect(sim.pendingFaults()).toEqual([]);
  });

  it('counts a connection the provider closed while idle, then reused at once, as no_response too: the pool cannot tell', async () => {
    expect(await create(`key-${randomUUID()}`)).toMatchObject({ status: 'succeeded' });
    // Closes the port and destroys its idle kept-alive sockets; the client reuses its socket before it hears of it.
    await sim.refuseConnections();
    try {
      expect(await create(`key-${randomUUID()}`)).toMatchObject({ status: 'unknown', reason: 'no_response' });
      // That socket is gone now: the next call needs a new connection and cannot get one, so nothing left.
      expect(await create(`key-${randomUUID()}`)).toMatchObject({ status: 'pending', reason: 'connect_failed' });
    } finally {
      await sim.acceptConnections();
    }
    expect(sim.stats().intentsCreated).toBe(1);
  });
});
