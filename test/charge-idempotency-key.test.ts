import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { hashRequest, IdempotencyRecordJanitor } from '@app/charges';
import { ChargeEntity } from '@app/database';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

describe('POST /charges with an Idempotency-Key', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());

  const post = (key: string, body: Record<string, unknown>, role: 'merchant' | 'admin' = 'merchant') =>
    stack.http.post('/charges').set(stack.auth(role)).set('Idempotency-Key', key).send(body);

  it('replays the first response (status and body) for the same key and body, creating one charge', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    const first = await post(key, body);
    const again = await post(key, { ...body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await stack.db.getRepository(ChargeEntity).countBy({ orderId: body.orderId as string })).toBe(1);
  });

  it('treats the same fields in another order as the same body', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    await post(key, body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await post(key, reordered)).status).toBe(201);
  });

  it('answers 422 for the same key with a different body, and changes nothing', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    await post(key, body);
    const other = { ...body, amountCents: 1 };
    const res = await post(key, other);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
    const rows = await stack.db.getRepository(ChargeEntity).findBy({ orderId: body.orderId as string });
    expect(rows.map((r) => r.amountCents)).toEqual([4990]);
  });

  it('answers 409 while the first request with the key is still in flight', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    // The first request is mid-flight: its key is recorded, its response not yet.
    const scope = `merchant:${stack.merchantId}`;
    await stack.db.query(`INSERT INTO idempotency_records (scope, key, request_hash, state) VALUES ($1, $2, $3, 'in_flight')`, [scope, key, hashRequest(body)]);
    const inFlight = await post(key, body);
    expect(inFlight.status).toBe(409);
    expect(inFlight.body.code).toBe('idempotency_key_in_flight');
    expect(await stack.db.getRepository(ChargeEntity).countBy({ orderId: body.orderId as string })).toBe(0);
  });

  it('lets a retry take over a key whose first request was abandoned in flight by a dead process', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    const scope = `merchant:${stack.merchantId}`;
    await stack.db.query(
      `INSERT INTO idempotency_records (scope, key, request_hash, state, created_at) VALUES ($1, $2, $3, 'in_flight', now() - interval '10 minutes')`,
      [scope, key, hashRequest(body)],
    );
    const res = await post(key, body);
    expect(res.status).toBe(201);
    expect((await post(key, body)).body).toEqual(res.body);
    expect(await stack.db.getRepository(ChargeEntity).countBy({ orderId: body.orderId as string })).toBe(1);
  });

  it('forgets completed keys after their lifetime, never a key still in flight', async () => {
    const [old, fresh, stuck] = [randomUUID(), randomUUID(), randomUUID()];
    await stack.db.query(
      `INSERT INTO idempotency_records (scope, key, request_hash, state, created_at) VALUES
         ('janitor', $1, $4, 'completed', now() - interval '25 hours'),
         ('janitor', $2, $4, 'completed', now()),
         ('janitor', $3, $4, 'in_flight', now() - interval '25 hours')`,
      [old, fresh, stuck, 'x'.repeat(64)],
    );
    expect(await stack.app.get(IdempotencyRecordJanitor).purge()).toBeGreaterThanOrEqual(1);
    const left = await stack.db.query(`SELECT key FROM idempotency_records WHERE scope = 'janitor' ORDER BY key`);
    expect(left.map((r: { key: string }) => r.key).sort()).toEqual([fresh, stuck].sort());
  });

  it('scopes keys to the merchant: its two tokens share them, another merchant never collides', async () => {
    const key = randomUUID();
    const body = newChargeBody();
    const tokens = stack.app.get(ApiTokenService);
    const sameMerchant = { Authorization: `Bearer ${await tokens.create(`second-${randomUUID()}`, 'merchant', { holder: stack.tokenNames.merchant })}` };
    const otherMerchant = { Authorization: `Bearer ${await tokens.create(`other-${randomUUID()}`, 'merchant')}` };
    const first = await post(key, body, 'merchant');
    expect(first.status).toBe(201);
    const replayed = await stack.http.post('/charges').set(sameMerchant).set('Idempotency-Key', key).send(body);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body.id).toBe(first.body.id);
    const other = await stack.http.post('/charges').set(otherMerchant).set('Idempotency-Key', key).send(body);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    // An admin belongs to no merchant: it cannot create a charge at all.
    const admin = await post(randomUUID(), newChargeBody(), 'admin');
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe('merchant_required');
  });

  it('answers 409 naming the existing charge when the order already has one', async () => {
    const body = newChargeBody();
    const first = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    const second = await stack.http.post('/charges').set(stack.auth('merchant')).send({ ...body, amountCents: 5000 });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'charge_exists', details: { chargeId: first.body.id } });
  });
});
