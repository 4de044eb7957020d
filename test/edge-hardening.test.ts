import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

describe('the edge of the api', () => {
  let stack: TestStack;
  let second: TestStack;
  const queuePrefix = `edge-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const env = { API_RATE_LIMIT: '5', API_RATE_LIMIT_WINDOW_MS: '60000', MAX_BODY_BYTES: '4096', WEBHOOK_RATE_LIMIT: '3' };
    stack = await startTestStack({ queuePrefix, env });
    // A second api process on the same Redis and database: the budget is the token's, not the process's.
    second = await startTestStack({ queuePrefix, env, sim: stack.sim });
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
  });

  it('sends helmet security headers and no x-powered-by', async () => {
    const res = await stack.http.get('/health');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('refuses a body over MAX_BODY_BYTES with 413 and creates nothing', async () => {
    const body = newChargeBody({ orderId: `order-${'x'.repeat(5000)}` });
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'body_too_large' });
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM charges WHERE order_id LIKE 'order-xxxx%'`);
    expect(n).toBe(0);
  });

  it('limits each token across api processes: 429 with Retry-After, other tokens and unauthenticated routes unaffected', async () => {
    const merchant = stack.auth('merchant');
    const missing = `/charges/${randomUUID()}`;
    const statuses: number[] = [];
    // Five requests spread over the two processes spend the token's budget of five.
    for (const api of [stack, second, stack, second, stack]) statuses.push((await api.http.get(missing).set(merchant)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);

    const refused = await second.http.get(missing).set(merchant);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // A refused request does nothing: a create is not attempted.
    expect((await stack.http.post('/charges').set(merchant).send(newChargeBody())).status).toBe(429);

    expect((await stack.http.get(missing).set(stack.auth('admin'))).status).toBe(404);
    expect((await stack.http.get('/health')).status).toBe(200);
  });

  it("tells a token its budget in X-RateLimit headers", async () => {
    const first = await stack.http.get('/review/items').set(stack.auth('reviewer'));
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' });
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect((await second.http.get('/review/items').set(stack.auth('reviewer'))).headers['x-ratelimit-remaining']).toBe('3');
  });

  it('opens no budget for a bearer nobody checked: a made-up token on a public route is not counted', async () => {
    const res = await stack.http.get('/health').set({ Authorization: `Bearer made-up-${randomUUID()}` });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('limits webhook deliveries per client address with a budget of their own', async () => {
    const statuses: number[] = [];
    for (const api of [stack, second, stack]) statuses.push((await api.http.post('/webhooks/stripe').set('Content-Type', 'application/json').send('{}')).status);
    expect(statuses).not.toContain(429);
    const refused = await second.http.post('/webhooks/stripe').set('Content-Type', 'application/json').send('{}');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after-webhooks'])).toBeGreaterThan(0);
    // Another spelling of the same route is the same route: it does not escape the budget.
    expect((await stack.http.post('/%77ebhooks/stripe').set('Content-Type', 'application/json').send('{}')).status).toBe(429);
    // The address's webhook budget is not a token's: an authenticated route still answers.
    expect((await stack.http.get(`/charges/${randomUUID()}`).set(stack.auth('admin'))).status).toBe(404);
  });

  it('refuses a URL it cannot decode in the one error shape, with the security headers', async () => {
    const res = await stack.http.post('/charges/%zz/submit').set(stack.auth('admin'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'bad_request' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers every refusal the framework makes in the one error shape, with a stable code', async () => {
    const shape = (res: { body: Record<string, unknown> }) => ({ code: res.body.code, fields: Object.keys(res.body).sort() });
    const fields = ['code', 'error', 'message', 'statusCode'];
    const admin = stack.auth('admin');
    expect(shape(await stack.http.get(`/charges/${randomUUID()}`))).toEqual({ code: 'unauthenticated', fields });
    expect(shape(await stack.http.get(`/charges/${randomUUID()}`).set({ Authorization: 'Bearer nope' }))).toEqual({ code: 'unauthenticated', fields });
    expect(shape(await stack.http.post('/accounts').set(stack.auth('reviewer')).send({ ownerTokenName: 'x', currency: 'brl' }))).toEqual({ code: 'forbidden_role', fields });
    expect(shape(await stack.http.get('/no-such-route').set(admin))).toEqual({ code: 'route_not_found', fields });
    expect(shape(await stack.http.get('/charges/not-a-uuid').set(admin))).toEqual({ code: 'bad_request', fields });
  });
});
