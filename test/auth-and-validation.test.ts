import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService, TokenNameTakenError } from '@app/auth';
import { AttemptTransitionEntity, ChargeEntity } from '@app/database';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

describe('authentication, roles and input validation', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  it('answers 401 without a bearer token and with an unknown one', async () => {
    const missing = await stack.http.post('/charges').send(newChargeBody());
    expect(missing.status).toBe(401);
    const wrong = await stack.http.get(`/charges/${crypto.randomUUID()}`).set('Authorization', 'Bearer not-a-real-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('answers 403 when the token has the wrong role', async () => {
    const res = await stack.http.post('/charges').set(stack.auth('reviewer')).send(newChargeBody());
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/merchant/);
  });

  it('serves health and docs without a token, and metrics on the metrics port only (404 beside the merchant routes)', async () => {
    const health = await stack.http.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.info).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
    expect((await stack.http.get('/metrics')).status).toBe(404);
    const metrics = await stack.metrics();
    expect(metrics).toContain('charge_once_attempt_transitions_total');
    expect(metrics).toMatch(/charge_once_open_review_items \d+/);
    expect(metrics).toMatch(/charge_once_oldest_unknown_attempt_seconds [\d.]+/);
    expect((await stack.http.get('/docs')).status).toBe(200);
  });

  it.each([
    ['amountCents', { amountCents: 10.5 }],
    ['amountCents', { amountCents: '100' }],
    ['amountCents', { amountCents: -1 }],
    ['currency', { currency: 'USD' }],
    ['orderId', { orderId: '' }],
    ['customerId', { customerId: undefined }],
    ['unexpected', { unexpected: true }],
  ])('rejects a bad %s with 400 naming the field and writes nothing', async (field, override) => {
    const body = newChargeBody(override);
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(JSON.stringify(res.body.message)).toContain(field);
    expect(await stack.db.getRepository(ChargeEntity).countBy({ orderId: body.orderId as string })).toBe(0);
  });

  it('rejects a malformed JSON body with 400 and writes nothing', async () => {
    const before = await stack.db.getRepository(ChargeEntity).count();
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).set('Content-Type', 'application/json').send('{"orderId": "x", ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(await stack.db.getRepository(ChargeEntity).count()).toBe(before);
  });

  it('rejects an unknown provider with 400 naming the provider field', async () => {
    const body = newChargeBody({ provider: 'paypal' });
    const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/provider/);
    expect(await stack.db.getRepository(ChargeEntity).countBy({ orderId: body.orderId as string })).toBe(0);
  });

  it('a named token is stored only as its hash, and its name is the actor in the audit trail', async () => {
    const tokens = stack.app.get(ApiTokenService);
    const name = `alice-${crypto.randomUUID().slice(0, 8)}`;
    const token = await tokens.create(name, 'merchant');
    await expect(tokens.create(name, 'reviewer')).rejects.toBeInstanceOf(TokenNameTakenError);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM api_tokens WHERE token_hash = $1 OR name = $1`, [token]);
    expect(n).toBe(0);

    const created = await stack.http.post('/charges').set('Authorization', `Bearer ${token}`).send(newChargeBody());
    const submitted = await stack.http.post(`/charges/${created.body.id}/submit`).set('Authorization', `Bearer ${token}`);
    const trail = await stack.db.getRepository(AttemptTransitionEntity).findBy({ attemptId: submitted.body.attempts[0].id });
    expect(trail.map((t) => t.actor)).toContain(name);
    expect((await stack.db.getRepository(ChargeEntity).findOneByOrFail({ id: created.body.id })).createdBy).toBe(name);
  });
});
