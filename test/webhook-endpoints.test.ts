import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { EndpointSigningSecrets, type EndpointSecretColumns } from '@app/events';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Merchant webhook endpoints over the real api and PostgreSQL (issue 34, part 2): the secret is shown once and
 * stored sealed, a rotation keeps the previous secret for 24 h, a ping reaches one endpoint, every route is
 * scoped by merchant, and a URL into our own network is refused before anything is stored.
 */
type Headers = { Authorization: string };

async function newMerchant(stack: TestStack, prefix = 'merchant'): Promise<{ headers: Headers; merchantId: string }> {
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  const token = await stack.app.get(ApiTokenService).create(name, 'merchant');
  const [{ id }] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM merchants WHERE name = $1`, [name]);
  return { headers: { Authorization: `Bearer ${token}` }, merchantId: id };
}

/** A receiver URL the tests never call (nothing delivers here): allowed because the suite sets WEBHOOK_ALLOW_PRIVATE_URLS=true. */
const receiver = (name = randomUUID().slice(0, 8)) => `http://127.0.0.1:9/hooks/${name}`;

describe('webhook endpoints', () => {
  let stack: TestStack;
  let merchant: Headers;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = stack.auth('merchant');
  });
  afterAll(async () => {
    await stack?.close();
  });

  const create = (body: Record<string, unknown>, headers: Headers = merchant) => stack.http.post('/webhook-endpoints').set(headers).send(body);
  const rowOf = async (id: string) =>
    (await stack.db.query<Array<EndpointSecretColumns & Record<string, unknown>>>(`SELECT * FROM webhook_endpoints WHERE id = $1`, [id]))[0];
  const endpointCount = async (merchantId: string) =>
    Number((await stack.db.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM webhook_endpoints WHERE merchant_id = $1`, [merchantId]))[0].n);

  it('creates an endpoint and answers its secret once: in the 201, never in a read, and never stored in the clear', async () => {
    const url = receiver();
    const created = await create({ url, events: ['charge.succeeded', 'charge.failed'], description: 'fulfilment' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { secret, ...view } = created.body as { secret: string; id: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(view).toEqual({
      id: expect.any(String),
      object: 'webhook_endpoint',
      merchantId: stack.merchantId,
      url: `${url}`,
      description: 'fulfilment',
      events: ['charge.succeeded', 'charge.failed'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      secretRotatedUntil: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const read = await stack.http.get(`/webhook-endpoints/${view.id}`).set(merchant);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(view);
    const listed = await stack.http.get('/webhook-endpoints').set(merchant);
    expect(listed.body.find((e: { id: string }) => e.id === view.id)).toEqual(view);
    for (const answer of [read, listed]) {
      expect(JSON.stringify(answer.body)).not.toContain(secret.slice('whsec_'.length));
      expect(JSON.stringify(answer.body)).not.toContain('secret"');
    }

    const row = await rowOf(view.id);
    expect(row.secret_ciphertext).toMatch(/^v1:/);
    expect(row.secret_ciphertext).not.toContain(secret.slice('whsec_'.length));
    expect(row.previous_secret_ciphertext).toBeNull();
    // What the deliverer will sign with is the secret the merchant was shown.
    expect(stack.app.get(EndpointSigningSecrets).signingSecretsOf(row)).toEqual([secret]);
  });

  it('subscribes to every event type when events is absent or null', async () => {
    for (const body of [{ url: receiver() }, { url: receiver(), events: null }]) {
      const created = await create(body);
      expect(created.status).toBe(201);
      expect(created.body.events).toBeNull();
      expect((await rowOf(created.body.id)).event_types).toBeNull();
    }
  });

  it("lists the merchant's own live endpoints, newest first", async () => {
    const { headers, merchantId } = await newMerchant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ url: receiver(`n${i}`) }, headers)).body.id);
    await stack.http.delete(`/webhook-endpoints/${ids[1]}`).set(headers).expect(204);
    const listed = await stack.http.get('/webhook-endpoints').set(headers);
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[0]]);
    expect(listed.body.every((e: { merchantId: string }) => e.merchantId === merchantId)).toBe(true);
  });

  it('changes url, events and description with PATCH, leaving absent fields as they were', async () => {
    const { id } = (await create({ url: receiver(), events: ['refund.failed'], description: 'old' })).body;
    const url = receiver('moved');
    const moved = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ url });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ url, events: ['refund.failed'], description: 'old', enabled: true });
    const narrowed = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ events: ['payout.sent', 'payout.failed'], description: null });
    expect(narrowed.body).toMatchObject({ url, events: ['payout.sent', 'payout.failed'], description: null });
    const widened = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ events: null });
    expect(widened.body.events).toBeNull();
    const untouched = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({});
    expect(untouched.status).toBe(200);
    expect(untouched.body).toEqual(widened.body);
    expect(await rowOf(id)).toMatchObject({ url, event_types: null, description: null });
  });

  it('disables with disabledReason merchant and enables again clearing the reason and the failure streak', async () => {
    const { id } = (await create({ url: receiver() })).body;
    const off = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'merchant' });
    expect(await rowOf(id)).toMatchObject({ enabled: false, disabled_reason: 'merchant' });
    const on = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });

    // As the deliverer leaves an endpoint it gave up on: disabled as failing, failing for days.
    await stack.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', failing_since = now() - interval '3 days' WHERE id = $1`, [id]);
    const stillOff = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ enabled: false });
    expect(stillOff.body).toMatchObject({ enabled: false, disabledReason: 'failing', failingSince: expect.any(String) });
    const again = await stack.http.patch(`/webhook-endpoints/${id}`).set(merchant).send({ enabled: true });
    expect(again.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect(await rowOf(id)).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it('deletes softly: 204, then gone from every route and the list, while the row and its deliveries stay', async () => {
    const { id } = (await create({ url: receiver() })).body;
    const ping = await stack.http.post(`/webhook-endpoints/${id}/test`).set(merchant);
    expect(ping.status).toBe(202);
    const deleted = await stack.http.delete(`/webhook-endpoints/${id}`).set(merchant);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const [method, path] of [['get', ''], ['patch', ''], ['delete', ''], ['post', '/rotate-secret'], ['post', '/test']] as const) {
      const answer = await stack.http[method](`/webhook-endpoints/${id}${path}`).set(merchant).send({});
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('webhook_endpoint_not_found');
    }
    expect((await stack.http.get('/webhook-endpoints').set(merchant)).body.map((e: { id: string }) => e.id)).not.toContain(id);
    expect((await rowOf(id)).deleted_at).toBeInstanceOf(Date);
    expect(await stack.db.query(`SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1`, [id])).toEqual([{ event_id: ping.body.eventId }]);
  });

  it('rotates the secret: a new one answered once, the previous kept valid for 24 h in its own column', async () => {
    const created = (await create({ url: receiver() })).body as { id: string; secret: string };
    const before = await rowOf(created.id);
    const rotated = await stack.http.post(`/webhook-endpoints/${created.id}/rotate-secret`).set(merchant);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    const row = await rowOf(created.id);
    expect(row.previous_secret_ciphertext).toBe(before.secret_ciphertext);
    expect(row.secret_ciphertext).not.toBe(before.secret_ciphertext);
    const [{ hours }] = await stack.db.query<Array<{ hours: number }>>(`SELECT extract(epoch FROM previous_secret_expires_at - now()) / 3600 AS hours FROM webhook_endpoints WHERE id = $1`, [created.id]);
    expect(Number(hours)).toBeGreaterThan(23.99);
    expect(Number(hours)).toBeLessThanOrEqual(24);
    expect(rotated.body.secretRotatedUntil).toBe(row.previous_secret_expires_at!.toISOString());

    // Signed with both, newest first, while the previous is valid; with the new one alone after.
    const secrets = stack.app.get(EndpointSigningSecrets);
    expect(secrets.signingSecretsOf(row)).toEqual([rotated.body.secret, created.secret]);
    expect(secrets.signingSecretsOf(row, new Date(row.previous_secret_expires_at!.getTime() + 1))).toEqual([rotated.body.secret]);

    const read = await stack.http.get(`/webhook-endpoints/${created.id}`).set(merchant);
    expect(read.body.secretRotatedUntil).toBe(rotated.body.secretRotatedUntil);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(rotated.body.secret.slice('whsec_'.length));

    // Once the window is over, the view says so.
    await stack.db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [created.id]);
    expect((await stack.http.get(`/webhook-endpoints/${created.id}`).set(merchant)).body.secretRotatedUntil).toBeNull();
  });

  it('sends a test ping as exactly one event and one delivery, for that endpoint only', async () => {
    const { headers, merchantId } = await newMerchant(stack);
    const target = (await create({ url: receiver('target'), events: ['charge.succeeded'] }, headers)).body.id as string;
    const sibling = (await create({ url: receiver('sibling') }, headers)).body.id as string;
    const sent = await stack.http.post(`/webhook-endpoints/${target}/test`).set(headers);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body).toEqual({ eventId: expect.any(String), endpointId: target, type: 'ping' });

    const events = await stack.db.query(`SELECT id, type, object_type, object_id, object_version, object FROM events WHERE merchant_id = $1`, [merchantId]);
    expect(events).toEqual([
      { id: sent.body.eventId, type: 'ping', object_type: 'webhook_endpoint', object_id: target, object_version: 1, object: expect.objectContaining({ id: target, object: 'webhook_endpoint' }) },
    ]);
    expect(JSON.stringify(events[0].object)).not.toMatch(/secret"|whsec_/);
    const deliveries = await stack.db.query(`SELECT event_id, endpoint_id, merchant_id, state FROM webhook_deliveries WHERE merchant_id = $1`, [merchantId]);
    expect(deliveries).toEqual([{ event_id: sent.body.eventId, endpoint_id: target, merchant_id: merchantId, state: 'pending' }]);
    expect(await stack.db.query(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1`, [sibling])).toEqual([]);

    // A second ping is the object's next version.
    const second = await stack.http.post(`/webhook-endpoints/${target}/test`).set(headers);
    expect((await stack.db.query(`SELECT object_version FROM events WHERE id = $1`, [second.body.eventId]))[0].object_version).toBe(2);
  });

  it('refuses to ping a disabled endpoint, writing no event', async () => {
    const { headers, merchantId } = await newMerchant(stack);
    const { id } = (await create({ url: receiver() }, headers)).body;
    await stack.http.patch(`/webhook-endpoints/${id}`).set(headers).send({ enabled: false }).expect(200);
    const refused = await stack.http.post(`/webhook-endpoints/${id}/test`).set(headers);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'webhook_endpoint_disabled', details: { endpointId: id, disabledReason: 'merchant' } });
    expect(await stack.db.query(`SELECT id FROM events WHERE merchant_id = $1`, [merchantId])).toEqual([]);
  });

  it("answers merchant B 404 for A's endpoint on every route, lists none of it, and changes nothing of A's", async () => {
    const { id } = (await create({ url: receiver('a-only') })).body;
    const b = await newMerchant(stack, 'merchant-b');
    const before = await rowOf(id);
    const answers = {
      get: await stack.http.get(`/webhook-endpoints/${id}`).set(b.headers),
      patch: await stack.http.patch(`/webhook-endpoints/${id}`).set(b.headers).send({ url: receiver('b-took-it'), enabled: false }),
      rotate: await stack.http.post(`/webhook-endpoints/${id}/rotate-secret`).set(b.headers),
      test: await stack.http.post(`/webhook-endpoints/${id}/test`).set(b.headers),
      delete: await stack.http.delete(`/webhook-endpoints/${id}`).set(b.headers),
    };
    const missing = await stack.http.get(`/webhook-endpoints/${randomUUID()}`).set(b.headers);
    for (const [route, answer] of Object.entries(answers)) {
      expect(answer.status, route).toBe(404);
      expect(answer.body.code, route).toBe('webhook_endpoint_not_found');
      expect(answer.body.message.replace(id, '<id>')).toBe(missing.body.message.replace(/[0-9a-f-]{36}/, '<id>'));
    }
    expect((await stack.http.get('/webhook-endpoints').set(b.headers)).body).toEqual([]);
    expect(await rowOf(id)).toEqual(before);
    expect(await stack.db.query(`SELECT id FROM events WHERE object_id = $1`, [id])).toEqual([]);
    expect((await stack.http.get(`/webhook-endpoints/${id}`).set(merchant)).status).toBe(200);
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const { headers, merchantId } = await newMerchant(stack);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{}, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://127.0.0.1/x' }, 'url'],
      [{ url: receiver(), events: ['charge.exploded'] }, 'events'],
      [{ url: receiver(), events: 'charge.succeeded' }, 'events'],
      [{ url: receiver(), events: [] }, 'events'],
      [{ url: receiver(), events: ['ping'] }, 'events'],
      [{ url: receiver(), events: ['charge.failed', 'charge.failed'] }, 'events'],
      [{ url: receiver(), description: 7 }, 'description'],
      [{ url: receiver(), secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, field] of bad) {
      const answer = await create(body, headers);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body.message), JSON.stringify(body)).toContain(field);
    }
    expect(await endpointCount(merchantId)).toBe(0);

    const { id } = (await create({ url: receiver() }, headers)).body;
    const before = await rowOf(id);
    const badPatches: Array<[Record<string, unknown>, string]> = [
      [{ url: null }, 'url'],
      [{ url: 'gopher://127.0.0.1/' }, 'url'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ enabled: null }, 'enabled'],
      [{ events: ['nope'] }, 'events'],
      [{ events: [] }, 'events'],
      [{ secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, field] of badPatches) {
      const answer = await stack.http.patch(`/webhook-endpoints/${id}`).set(headers).send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body.message), JSON.stringify(body)).toContain(field);
    }
    expect(await rowOf(id)).toEqual(before);
  });

  it('answers a malformed id 400 on every route, as other routes do', async () => {
    for (const [method, path] of [['get', ''], ['patch', ''], ['delete', ''], ['post', '/rotate-secret'], ['post', '/test']] as const) {
      const answer = await stack.http[method](`/webhook-endpoints/not-a-uuid${path}`).set(merchant).send({});
      expect(answer.status, `${method} ${path}`).toBe(400);
    }
    expect((await stack.http.get('/charges/not-a-uuid').set(merchant)).status).toBe(400);
  });

  it('keeps reviewers out, lets admins read every merchant, and never mints a secret for an admin', async () => {
    const { id } = (await create({ url: receiver() })).body;
    expect((await stack.http.get('/webhook-endpoints').set(stack.auth('reviewer'))).status).toBe(403);
    expect((await create({ url: receiver() }, stack.auth('reviewer'))).status).toBe(403);
    const asAdmin = await stack.http.get(`/webhook-endpoints/${id}`).set(stack.auth('admin'));
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.merchantId).toBe(stack.merchantId);
    const adminCreate = await create({ url: receiver() }, stack.auth('admin'));
    expect(adminCreate.status).toBe(403);
    expect(adminCreate.body.code).toBe('webhook_endpoint_merchant_required');
    const before = await rowOf(id);
    const adminRotate = await stack.http.post(`/webhook-endpoints/${id}/rotate-secret`).set(stack.auth('admin'));
    expect(adminRotate.status).toBe(403);
    expect(adminRotate.body.code).toBe('webhook_endpoint_merchant_required');
    expect(await rowOf(id)).toEqual(before);
  });

  it('holds a merchant to 16 live endpoints, even when the creates race', async () => {
    const { headers, merchantId } = await newMerchant(stack);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ url: receiver(`race-${i}`) }, headers)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.code])).toEqual(Array(4).fill([422, 'webhook_endpoint_limit_reached']));
    expect(await endpointCount(merchantId)).toBe(16);
    // A deleted one frees its place.
    await stack.http.delete(`/webhook-endpoints/${answers.find((a) => a.status === 201)!.body.id}`).set(headers).expect(204);
    expect((await create({ url: receiver() }, headers)).status).toBe(201);
  });
});

/**
 * The SSRF acceptance point: with WEBHOOK_ALLOW_PRIVATE_URLS=false, a URL that is not https or that
 * reaches loopback, a private network or the metadata address is refused, on create and on PATCH, and nothing is
 * stored. `localhost` is an https name that resolves to 127.0.0.1 (real DNS: /etc/hosts).
 */
describe('webhook endpoint URLs when private addresses are not allowed', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const REFUSED = ['https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://169.254.169.254/latest/meta-data', 'https://localhost/x', 'http://example.com/x', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'http://93.184.216.34/x'];

  it('refuses to create an endpoint for loopback, private, metadata, a name resolving to loopback, or plain http, storing nothing', async () => {
    const { headers, merchantId } = await newMerchant(stack);
    for (const url of REFUSED) {
      const answer = await stack.http.post('/webhook-endpoints').set(headers).send({ url });
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toMatchObject({ code: 'webhook_url_refused', details: { field: 'url' } });
      expect(answer.body.message, url).toMatch(/^url: /);
    }
    expect(await stack.db.query(`SELECT id FROM webhook_endpoints WHERE merchant_id = $1`, [merchantId])).toEqual([]);
  });

  it('refuses the same URLs on PATCH, leaving the endpoint as it was', async () => {
    const { headers } = await newMerchant(stack);
    // A public address literal: accepted without any DNS lookup.
    const created = await stack.http.post('/webhook-endpoints').set(headers).send({ url: 'https://93.184.216.34/hooks' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [before] = await stack.db.query(`SELECT * FROM webhook_endpoints WHERE id = $1`, [created.body.id]);
    for (const url of REFUSED) {
      const answer = await stack.http.patch(`/webhook-endpoints/${created.body.id}`).set(headers).send({ url, enabled: false });
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toMatchObject({ code: 'webhook_url_refused', details: { field: 'url' } });
    }
    expect((await stack.db.query(`SELECT * FROM webhook_endpoints WHERE id = $1`, [created.body.id]))[0]).toEqual(before);
  });
});
