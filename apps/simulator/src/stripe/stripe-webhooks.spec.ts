import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStripeSignature } from '@app/gateways';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROCESSING_METHOD } from './payment-intent.js';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { chargeBody, stripeCall } from '../simulator-test-client.js';

const SECRET = 'whsec_spec';

interface Received {
  rawBody: string;
  signature: string | undefined;
  event: { id: string; type: string; data: { object: { id: string; status: string } }; request: unknown };
}

let sim: Simulator;
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
let receiverStatus = 200;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let rawBody = '';
    request.on('data', (chunk) => (rawBody += chunk));
    request.on('end', () => {
      const signature = request.headers['stripe-signature'] as string | undefined;
      received.push({ rawBody, signature, event: JSON.parse(rawBody) });
      response.writeHead(receiverStatus).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
  sim = await startSimulator({ webhook: { url: receiverUrl, secret: SECRET } });
});
afterAll(async () => {
  await sim.close();
  await new Promise((done) => receiver.close(done));
});
beforeEach(async () => {
  await sim.reset();
  received = [];
  receiverStatus = 200;
});

async function createAndSettle(fields: Parameters<typeof chargeBody>[0] = {}, key = 'k-webhook'): Promise<string> {
  const response = await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody(fields), key });
  await sim.webhooksIdle();
  return (response.json.id ?? response.json.error.payment_intent.id) as string;
}

function verified(entry: Received): boolean {
  return verifyStripeSignature(entry.rawBody, entry.signature, SECRET, 300, Math.floor(Date.now() / 1000)).ok;
}

describe('simulated Stripe webhooks', () => {
  it('sends created then succeeded, signed over the raw body, naming the request and its key', async () => {
    const intentId = await createAndSettle();

    expect(received.map((r) => r.event.type)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    expect(received.every(verified)).toBe(true);
    expect(received[1].event).toMatchObject({
      object: 'event',
      livemode: false,
      data: { object: { id: intentId, status: 'succeeded' } },
      request: { idempotency_key: 'k-webhook' },
    });
    expect(sim.stats().webhooks).toMatchObject({ sent: 2, delivered: 2, failed: 0 });
  });

  it('sends payment_failed for a decline', async () => {
    await createAndSettle({ paymentMethod: 'pm_card_chargeDeclined' });

    expect(received.map((r) => r.event.type)).toEqual(['payment_intent.created', 'payment_intent.payment_failed']);
  });

  it('sends nothing for a replayed request', async () => {
    await createAndSettle();
    await createAndSettle();

    expect(received).toHaveLength(2);
  });

  it('reverses each batch when reorder is on', async () => {
    sim.configure({ webhook: { reorder: true } });
    await createAndSettle();

    expect(received.map((r) => r.event.type)).toEqual(['payment_intent.succeeded', 'payment_intent.created']);
  });

  it('sends extra copies with the same event ids when duplicates are asked for', async () => {
    sim.configure({ webhook: { duplicates: 2 } });
    await createAndSettle();

    expect(received).toHaveLength(6);
    expect(new Set(received.map((r) => r.event.id)).size).toBe(2);
    expect(sim.stats().webhooks).toMatchObject({ duplicated: 4, delivered: 6 });
  });

  it('drops deliveries at the configured rate', async () => {
    sim.configure({ webhook: { dropRate: 1 } });
    await createAndSettle();

    expect(received).toHaveLength(0);
    expect(sim.stats().webhooks).toMatchObject({ dropped: 2, sent: 0 });
    expect(sim.webhookDeliveries().map((d) => d.outcome)).toEqual(['dropped', 'dropped']);
  });

  it('waits the configured delay before delivering', async () => {
    sim.configure({ webhook: { delayMs: 200 } });
    await stripeCall(sim, 'POST', '/v1/payment_intents', { body: chargeBody() });
    await new Promise((done) => setTimeout(done, 20));
    expect(received).toHaveLength(0);

    await sim.webhooksIdle();
    expect(received).toHaveLength(2);
  });

  it('announces a later status change, such as processing finishing', async () => {
    const intentId = await createAndSettle({ paymentMethod: PROCESSING_METHOD });
    expect(received.map((r) => r.event.type)).toEqual(['payment_intent.created', 'payment_intent.processing']);

    const moved = sim.setIntentStatus(intentId, 'succeeded');
    await sim.webhooksIdle();

    expect(moved).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    expect(received.at(-1)?.event).toMatchObject({ type: 'payment_intent.succeeded', request: { id: null } });
  });

  it('forges an event about an attempt with a signature that does not verify', async () => {
    await createAndSettle({ attemptId: 'att_forged' });

    const delivery = await sim.forgeWebhook({ type: 'payment_intent.succeeded', attemptId: 'att_forged' });

    expect(delivery).toMatchObject({ forged: true, outcome: 'delivered' });
    expect(received.at(-1)?.event.type).toBe('payment_intent.succeeded');
    expect(verified(received.at(-1)!)).toBe(false);
    expect(sim.stats().webhooks.forged).toBe(1);
  });

  it('sends one event on demand', async () => {
    const intentId = await createAndSettle();

    await sim.sendWebhook({ eventType: 'payment_intent.succeeded', intentId });

    expect(received).toHaveLength(3);
    expect(verified(received[2])).toBe(true);
    expect(received[2].event.id).not.toBe(received[1].event.id);
  });

  it('records a receiver error as a failed delivery and keeps working', async () => {
    receiverStatus = 500;
    await createAndSettle();
    sim.configure({ webhook: { url: 'http://127.0.0.1:1/unreachable' } });
    await createAndSettle({}, 'k-unreachable');

    expect(sim.stats().webhooks).toMatchObject({ sent: 4, failed: 4, delivered: 0 });
    expect((await stripeCall(sim, 'GET', '/v1/payment_intents')).status).toBe(200);
  });
});
