import { randomUUID } from 'node:crypto';
import { test } from '@fast-check/vitest';
import { afterAll, expect } from 'vitest';
import { startEfiSimulator } from '@app/simulator';
import { fundedAccount, payoutBody } from './support/payouts.js';
import { requestOf, type GeneratedRequest, type IdPools } from './support/hostile-requests.js';
import { operationsOf, type Operation } from './support/openapi-operations.js';
import { refund, succeededCharge } from './support/refunds.js';
import { unknownAttemptInReview } from './support/review.js';
import { changedTables, rowSnapshotter } from './support/row-snapshot.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack } from './support/test-stack.js';

/**
 * Issue 36: no input reaches a 5xx, every refusal names its `code`, and a refused request writes nothing. Every
 * operation of the OpenAPI document the api serves is walked (a route added later is covered with no edit here),
 * with bodies and query strings from its own schema, mutated, and from the hostile edges of every type and encoding.
 *
 * `npm test` runs 24 requests per operation with seed 36; `npm run fuzz` (FUZZ=1) runs FUZZ_RUNS (default 300) per
 * operation with FUZZ_SEED (default: a fresh one, printed with the figures). Replay a failure with its FUZZ_SEED.
 */
const FUZZ = process.env.FUZZ === '1';
const RUNS = Number(process.env.FUZZ_RUNS ?? (FUZZ ? 300 : 24));
const SEED = Number(process.env.FUZZ_SEED ?? (FUZZ ? Date.now() % 2 ** 31 : 36));

// The file's own database: row counts of every table are compared, and other files write to the shared one.
const efi = await startEfiSimulator({ settleAfterMs: null });
const stack = await startTestStack({ efi, env: { DATABASE_URL: await scratchDatabase('api_properties') } });
afterAll(async () => {
  printFigures();
  await stack.close();
  await efi.close();
});

const doc = (await stack.http.get('/docs-json')).body;
const operations = operationsOf(doc);
const pools = await realIds();
const roles = await Promise.all(operations.map(roleOf));
// No table of ours changes on a refused request: none is excluded (the failed-login counters live in Redis).
const snapshot = await rowSnapshotter(stack.db);

/** The caller's own objects, so ids reach the services and SQL rather than stopping at a 404 every time. */
async function realIds(): Promise<IdPools> {
  const charge = await succeededCharge(stack);
  const created = (await stack.http.post('/charges').set(stack.auth('merchant')).send({ orderId: `order-${randomUUID()}`, amountCents: 700, currency: 'usd', customerId: 'cus_fuzz', paymentMethodId: 'pm_card_visa' })).body.id as string;
  const refunded = await refund(stack, charge.id, 100);
  const account = await fundedAccount(stack, 50_000);
  const payout = await stack.http.post(`/accounts/${account}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', randomUUID()).send(payoutBody(1_000));
  expect(payout.status, JSON.stringify(payout.body)).toBe(201);
  // At the four-eyes amount a credit waits for a second admin: its request id is what /confirm takes.
  const credit = await stack.http.post(`/accounts/${account}/credits`).set(stack.auth('admin')).set('Idempotency-Key', randomUUID()).send({ amountCents: stack.config.REVIEW_FOUR_EYES_AMOUNT_CENTS, reference: 'fuzz-credit' });
  expect(credit.status, JSON.stringify(credit.body)).toBe(202);
  const review = await unknownAttemptInReview(stack, '500_before_create');
  const endpoint = await stack.http.post('/webhook-endpoints').set(stack.auth('merchant')).send({ url: 'http://127.0.0.1:9/hooks' });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const events = (await stack.http.get('/events?limit=5').set(stack.auth('merchant'))).body.data as Array<{ id: string }>;
  const run = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'stripe', date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) });
  expect(run.status, JSON.stringify(run.body)).toBeLessThan(300);
  return {
    charges: [charge.id, created],
    refunds: [refunded.id],
    accounts: [account],
    payouts: [payout.body.id],
    credits: [credit.body.request.id],
    items: [review.itemId],
    'webhook-endpoints': [endpoint.body.id],
    events: events.map((e) => e.id),
    runs: [run.body.id ?? run.body.run?.id].filter(Boolean),
  };
}

type Role = 'merchant' | 'reviewer' | 'admin';

/** The least-privileged role the route lets in (an admin may call every route): the first that is not a 403. */
async function roleOf(op: Operation): Promise<Role> {
  const path = op.path.replace(/\{\w+\}/g, randomUUID());
  for (const role of ['merchant', 'reviewer'] as const) {
    const res = await fetch(`${stack.baseUrl}${path}`, { method: op.method.toUpperCase(), headers: stack.auth(role) });
    await res.arrayBuffer();
    if (res.status !== 403) return role;
  }
  return 'admin';
}

function authOf(request: GeneratedRequest, role: Role): Record<string, string> {
  switch (request.auth) {
    case 'right':
      return stack.auth(role);
    case 'other':
      return stack.auth(role === 'merchant' ? 'reviewer' : 'merchant');
    case 'unknown':
      return { Authorization: `Bearer co_${randomUUID()}` };
    case 'none':
      return {};
  }
}

const sent = new Map<string, number>();
const statuses = new Map<string, number>();

function count(route: string, status: number, kind: string): void {
  sent.set(route, (sent.get(route) ?? 0) + 1);
  statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
  statuses.set(`${status} ${kind}`, (statuses.get(`${status} ${kind}`) ?? 0) + 1);
}

function printFigures(): void {
  const total = [...sent.values()].reduce((a, b) => a + b, 0);
  const byStatus = [...statuses].filter(([k]) => !k.includes(' ')).sort();
  const byKind = [...statuses].filter(([k]) => k.includes(' ')).sort();
  console.log(
    [
      `api properties: ${total} requests over ${sent.size} operations (seed ${SEED}, ${RUNS} runs each)`,
      ...[...sent].map(([route, n]) => `  ${String(n).padStart(6)}  ${route}`),
      `status histogram: ${byStatus.map(([k, n]) => `${k}×${n}`).join('  ')}`,
      `by body kind: ${byKind.map(([k, n]) => `${k}×${n}`).join('  ')}`,
    ].join('\n'),
  );
}

/** A seed per operation from its name, so adding a route changes no other route's sequence. */
function seedOf(route: string): number {
  let h = SEED;
  for (let i = 0; i < route.length; i++) h = (Math.imul(h, 31) + route.charCodeAt(i)) | 0;
  return h;
}

operations.forEach((op, i) => {
  const route = `${op.method.toUpperCase()} ${op.path}`;
  const role = roles[i];
  test.prop([requestOf(op, pools, stack.config.MAX_BODY_BYTES)], { numRuns: RUNS, seed: seedOf(route), endOnFailure: true })(
    `${route} (as ${role}) answers no 5xx, a code with every 4xx, and writes nothing when it refuses`,
    async (request) => {
      const before = await snapshot();
      const res = await fetch(`${stack.baseUrl}${request.url}`, { method: request.method, headers: { ...request.headers, ...authOf(request, role) }, body: request.body });
      const text = await res.text();
      count(route, res.status, request.kind);
      const what = `${request.method} ${request.url.slice(0, 300)} [${request.kind}, auth ${request.auth}] → ${res.status} ${text.slice(0, 300)}`;
      expect(res.status, what).toBeLessThan(500);
      if (res.status < 400) return;
      let body: { code?: unknown } = {};
      try {
        body = JSON.parse(text) as { code?: unknown };
      } catch {
        // not JSON: the assertion below names it
      }
      expect(typeof body.code, `${what}: a 4xx without a string code`).toBe('string');
      expect(changedTables(before, await snapshot()), `${what}: a refused request wrote`).toEqual([]);
    },
    Math.max(30_000, RUNS * 1_500),
  );
});
