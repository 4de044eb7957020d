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
