import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, submit } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Merchant events reach the merchant's receiver, which verifies every one with the official `standardwebhooks`
 * package: the worker in this stack delivers from PostgreSQL, retries on a compressed schedule, keeps every try.
 */
describe('webhook delivery to a merchant endpoint', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let endpointId: string;

  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { WEBHOOK_RETRY_SCHEDULE_MS: '100,200', WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await WebhookReceiver.start();
    const created = await stack.http.post('/webhook-endpoints').set(stack.auth('merchant')).send({ url: receiver.url });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    endpointId = created.body.id;
    receiver.secrets = [created.body.secret];
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  const eventsOf = (objectId: string) => stack.db.query<Array<{ id: string; type: string; object_version: number }>>(`SELECT id, type, object_version FROM events WHERE object_id = $1 ORDER BY seq`, [objectId]);

  it('delivers a charge\'s event, signed so that standardwebhooks verifies it, under the event\'s id', async () => {
    const charge = await createCharge(stack);
    expect((await submit(stack, charge.id)).status).toBe('succeeded');
    const [event] = await eventsOf(charge.id);
    expect(event.type).toBe('charge.succeeded');
    const [got] = await waitFor(async () => receiver.of(event.id), (r) => r.length > 0, 10_000, 'the delivery');
    expect(got.verifiedWith).toEqual(receiver.secrets);
    expect(got.webhookId).toBe(event.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.event).toMatchObject({ id: event.id, type: 'charge.succeeded', merchantId: stack.merchantId, objectVersion: 1, data: { object: { id: charge.id, object: 'charge', status: 'succeeded' } } });
    const deliveries = await waitFor(
      async () => (await stack.http.get(`/events/${event.id}/deliveries`).set(stack.auth('merchant'))).body as Array<{ state: string; tries: Array<{ httpStatus: number }> }>,
      (d) => d[0]?.state === 'delivered',
      5_000,
      'the delivery recorded',
    );
    expect(deliveries).toMatchObject([{ endpointId, state: 'delivered', attempts: 1, tries: [{ attempt: 1, httpStatus: 204 }] }]);
  });

  it('retries a 500 and a reset on the schedule under one webhook-id, and keeps every try', async () => {
    receiver.answer = (_r, nth) => (nth % 3 === 0 ? 500 : nth % 3 === 1 ? 'reset' : 'ok');
    receiver.requests.length = 0;
    const charge = await createCharge(stack);
    await submit(stack, charge.id);
    const [event] = await eventsOf(charge.id);
    const got = await waitFor(async () => receiver.of(event.id), (r) => r.some((x) => x.answered === 'ok'), 10_000, 'the third try');
    expect(got.map((r) => r.answered)).toEqual([500, 'reset', 'ok']);
    expect(new Set(got.map((r) => r.webhookId))).toEqual(new Set([event.id]));
    for (const r of got) expect(r.verifiedWith).toHaveLength(1);
    const [delivery] = await waitFor(
      async () => (await stack.http.get(`/events/${event.id}/deliveries`).set(stack.auth('merchant'))).body as Array<{ state: string; tries: Array<{ httpStatus: number | null; error: string | null; responseExcerpt: string | null }> }>,
      (d) => d[0]?.state === 'delivered',
      5_000,
      'the delivery recorded',
    );
    expect(delivery.tries.map((t) => t.httpStatus)).toEqual([500, null, 204]);
    expect(delivery.tries[0].responseExcerpt).toBe('answer 500');
    expect(delivery.tries[1].error).toBeTruthy();
    receiver.answer = () => 'ok';
  });

  it('signs with both secrets for a day after a rotation: a receiver holding either one verifies', async () => {
    const old = receiver.secrets[0];
    const rotated = await stack.http.post(`/webhook-endpoints/${endpointId}/rotate-secret`).set(stack.auth('merchant'));
    expect(rotated.status).toBe(200);
    receiver.secrets = [old, rotated.body.secret];
    const charge = await createCharge(stack);
    await submit(stack, charge.id);
    const [event] = await eventsOf(charge.id);
    const [got] = await waitFor(async () => receiver.of(event.id), (r) => r.length > 0, 10_000, 'the delivery');
    expect(got.verifiedWith).toEqual([old, rotated.body.secret]);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
  });

  it('sends an event again on redeliver, under the same webhook-id, and 404s another merchant\'s event', async () => {
    const charge = await createCharge(stack);
    await submit(stack, charge.id);
    const [event] = await eventsOf(charge.id);
    await waitFor(async () => receiver.of(event.id), (r) => r.length === 1, 10_000, 'the first delivery');
    const again = await stack.http.post(`/events/${event.id}/redeliver`).set(stack.auth('merchant'));
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ eventId: event.id, deliveries: 1 });
    const got = await waitFor(async () => receiver.of(event.id), (r) => r.length === 2, 10_000, 'the redelivery');
    expect(got.map((r) => r.webhookId)).toEqual([event.id, event.id]);
    const other = await stack.db.query<Array<{ id: string }>>(`INSERT INTO merchants (name) VALUES ('other-' || gen_random_uuid()) RETURNING id`);
    const [foreign] = await stack.db.query<Array<{ id: string }>>(
      `SELECT emit_event($1, 'account.credited', 'account', gen_random_uuid(), '{}'::jsonb, NULL) AS id`,
      [other[0].id],
    );
    expect((await stack.http.get(`/events/${foreign.id}/deliveries`).set(stack.auth('merchant'))).status).toBe(404);
    expect((await stack.http.post(`/events/${foreign.id}/redeliver`).set(stack.auth('merchant'))).status).toBe(404);
  });

  it('sends again a redelivery asked for while a try is in flight, after that try is answered', async () => {
    let release!: () => void;
    receiver.held = new Promise<void>((resolve) => (release = resolve));
    try {
      const charge = await createCharge(stack);
      await submit(stack, charge.id);
      const [event] = await eventsOf(charge.id);
      await waitFor(async () => receiver.of(event.id), (r) => r.length === 1, 10_000, 'the first try, held by the receiver');
      const again = await stack.http.post(`/events/${event.id}/redeliver`).set(stack.auth('merchant'));
      expect(again.body).toEqual({ eventId: event.id, deliveries: 1 });
      receiver.held = null;
      release();
      const got = await waitFor(async () => receiver.of(event.id), (r) => r.length === 2, 10_000, 'the redelivery after the held try');
      expect(got.map((r) => r.webhookId)).toEqual([event.id, event.id]);
      const [delivery] = await waitFor(
        async () => (await stack.http.get(`/events/${event.id}/deliveries`).set(stack.auth('merchant'))).body as Array<{ state: string; tries: Array<{ httpStatus: number }> }>,
        (d) => d[0]?.state === 'delivered' && d[0].tries.length === 2,
        5_000,
        'both tries recorded',
      );
      expect(delivery.tries.map((t) => t.httpStatus)).toEqual([204, 204]);
    } finally {
      receiver.held = null;
      release();
    }
  });

  it('disables an endpoint that answers 410 Gone, and delivers nothing more to it', async () => {
    const gone = await WebhookReceiver.start();
    gone.answer = () => 410;
    try {
      const created = await stack.http.post('/webhook-endpoints').set(stack.auth('merchant')).send({ url: gone.url });
      gone.secrets = [created.body.secret];
      const ping = await stack.http.post(`/webhook-endpoints/${created.body.id}/test`).set(stack.auth('merchant'));
      expect(ping.status).toBe(202);
      const view = await waitFor(
        async () => (await stack.http.get(`/webhook-endpoints/${created.body.id}`).set(stack.auth('merchant'))).body as { enabled: boolean; disabledReason: string | null },
        (v) => !v.enabled,
        10_000,
        'the endpoint disabled',
      );
      expect(view.disabledReason).toBe('gone');
      expect(gone.did).toEqual({ http_410: 1 });
      expect(gone.requests[0].event.type).toBe('ping');
      expect(gone.requests[0].verifiedWith).toHaveLength(1);
    } finally {
      await gone.close();
    }
  });
});
