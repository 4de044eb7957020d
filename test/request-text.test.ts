import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Bodies and query strings that used to reach a 500 or be silently changed (issue 36): each is now a 4xx with a
 * `code`, refused before any service runs, so nothing is written.
 */
describe('request text at the edge', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (body: Buffer | string, type = 'application/json') =>
    fetch(`${stack.baseUrl}/charges`, { method: 'POST', headers: { ...stack.auth('merchant'), 'Content-Type': type }, body });
  const charge = (orderId: string) => JSON.stringify({ orderId, amountCents: 100, currency: 'usd', customerId: 'cus_edge', paymentMethodId: 'pm_card_visa' });
  const stored = async (orderIdLike: string) => (await stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM charges WHERE order_id LIKE $1`, [orderIdLike]))[0].n;

  it('refuses a body nested 100 000 deep with 400 invalid_body, not a stack overflow', async () => {
    const res = await post('['.repeat(100_000) + ']'.repeat(100_000));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_body', message: 'the body nests deeper than 32 levels' });
  });

  it('refuses ill-formed UTF-8 instead of storing U+FFFD in place of the merchant\'s bytes', async () => {
    const tag = `utf8-${randomUUID().slice(0, 8)}`;
    const [head, tail] = charge(`${tag}-X`).split('X');
    const res = await post(Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28]), Buffer.from(tail)]));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_body', message: 'the body is not well-formed UTF-8' });
    expect(await stored(`${tag}%`)).toBe(0);
  });

  it('refuses a NUL or a lone surrogate in any string with the field named, and stores nothing', async () => {
    const tag = `nul-${randomUUID().slice(0, 8)}`;
    for (const orderId of [`${tag}-\u0000`, `${tag}-\ud800`]) {
      const res = await post(charge(orderId));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_body', details: { field: 'orderId' } });
    }
    expect(await stored(`${tag}%`)).toBe(0);
  });

  it('answers 415 to a text/plain body on a JSON route', async () => {
    const res = await post('orderId=x', 'text/plain');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers 415 to a form-encoded body on a JSON route and stores nothing', async () => {
    const tag = `form-${randomUUID().slice(0, 8)}`;
    const res = await post(`orderId=${tag}&amountCents=100&currency=usd&customerId=cus_edge&paymentMethodId=pm_card_visa`, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(await stored(`${tag}%`)).toBe(0);
  });

  it('refuses %00 and escapes that are not UTF-8 in a query parameter, naming it', async () => {
    for (const query of ['a%00b', 'a%C3%28b']) {
      const res = await fetch(`${stack.baseUrl}/finance/charges?query=${query}`, { headers: stack.auth('reviewer') });
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_query', details: { field: 'query' } });
    }
    expect((await fetch(`${stack.baseUrl}/finance/charges?query=${encodeURIComponent('pedido-ü')}`, { headers: stack.auth('reviewer') })).status).toBe(200);
  });

  it('refuses a date that is no calendar day (2026-02-30) in a body or a query with 400 naming it, never a 500 or a roll into March', async () => {
    const tag = `due-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ orderId: tag, amountCents: 100, currency: 'brl', customerId: 'cus_edge', provider: 'asaas', billingType: 'BOLETO', dueDate: '2026-02-30' });
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('dueDate must be a calendar date');
    expect(await stored(`${tag}%`)).toBe(0);
    const refused = [
      ['/reconciliation/runs?from=2026-13-45', 'admin', 'from must be a calendar date'],
      ['/reconciliation/runs?to=2026-02-30', 'admin', 'to must be a calendar date'],
      ['/finance/reconciliation/calendar?to=2026-02-29', 'admin', 'to must be a calendar date'],
      ['/review/items?olderThan=2026-02-30T10:00:00Z', 'reviewer', 'olderThan must be'],
    ] as const;
    for (const [path, role, message] of refused) {
      const answer = await fetch(`${stack.baseUrl}${path}`, { headers: stack.auth(role) });
      expect(answer.status, path).toBe(400);
      expect(JSON.stringify(await answer.json()), path).toContain(message);
    }
    const leap = await fetch(`${stack.baseUrl}/reconciliation/runs?from=2028-02-29`, { headers: stack.auth('admin') });
    expect(leap.status).toBe(200);
    const run = await fetch(`${stack.baseUrl}/reconciliation/runs`, { method: 'POST', headers: { ...stack.auth('admin'), 'Content-Type': 'application/json' }, body: JSON.stringify({ provider: 'stripe', date: '2026-02-30' }) });
    expect(run.status).toBe(400);
  });

  it('answers a 100 kB query string with 431 headers_too_large in the error shape, not a body without a code', async () => {
    const res = await fetch(`${stack.baseUrl}/events?after=${'x'.repeat(100_000)}`, { headers: stack.auth('merchant') });
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({ statusCode: 431, code: 'headers_too_large' });
  });

  it('still takes any well-formed text, emoji and accents included', async () => {
    const orderId = `ok-${randomUUID().slice(0, 8)}-pedido-ü-😀`;
    const res = await post(charge(orderId));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { orderId: string }).orderId).toBe(orderId);
  });
});
