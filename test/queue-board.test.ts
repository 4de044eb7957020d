import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Bull Board is mounted outside Nest, so it has its own guard: these prove that guard, not Nest's. */
describe('the queue board at /admin/queues', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is refused without a token, and asks a browser for Basic auth', async () => {
    const res = await stack.http.get('/admin/queues');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    expect((await stack.http.get('/admin/queues/api/queues')).status).toBe(401);
  });

  it('is refused with an unknown token, and with a merchant or reviewer token', async () => {
    expect((await stack.http.get('/admin/queues').set('Authorization', 'Bearer not-a-real-token-at-all')).status).toBe(401);
    expect((await stack.http.get('/admin/queues').set(stack.auth('merchant'))).status).toBe(403);
    expect((await stack.http.get('/admin/queues/api/queues').set(stack.auth('reviewer'))).status).toBe(403);
  });

  it('serves the board and every queue to an admin token, as Bearer or as the Basic password', async () => {
    const page = await stack.http.get('/admin/queues').set(stack.auth('admin'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('charge-once queues');

    const basic = `Basic ${Buffer.from(`admin:${stack.tokens.admin}`).toString('base64')}`;
    const api = await stack.http.get('/admin/queues/api/queues').set('Authorization', basic);
    expect(api.status).toBe(200);
    const names = (api.body as { queues: Array<{ name: string }> }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['attempt-resolution-asaas', 'attempt-resolution-efi', 'attempt-resolution-stripe', 'attempt-submit', 'reconciliation-run']);
  });
});

describe('failed logins at the queue board', () => {
  let stack: TestStack;

  beforeAll(async () => {
    // The production budget, on a stack (and Redis prefix) of its own so no other test's failures count.
    stack = await startTestStack({ env: { AUTH_FAILURE_LIMIT: '20' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('count like on every other route: the 21st wrong token from one address is a 429, and an admin still gets in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await stack.http.get('/admin/queues').set('Authorization', `Bearer guess-${i}-${'x'.repeat(24)}`)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    const limited = await stack.http.get('/admin/queues').set('Authorization', 'Basic ' + Buffer.from('admin:another-guess').toString('base64'));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The same address is limited on the Nest routes too: one budget.
    expect((await stack.http.get('/charges/00000000-0000-4000-8000-000000000000').set('Authorization', 'Bearer yet-another-guess-xxxxxxxx')).status).toBe(429);
    // A valid token never reaches the limiter.
    expect((await stack.http.get('/admin/queues').set(stack.auth('admin'))).status).toBe(200);
  });
});
