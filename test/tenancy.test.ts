import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { signStripePayload } from '@app/gateways';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN, startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { buildOpenApiDocument } from '../apps/api/src/openapi/openapi-document.js';
import { createCharge, submit } from './support/charges.js';
import { fundedAccount, payoutBody } from './support/payouts.js';
import { refund } from './support/refunds.js';
import { newReviewer } from './support/review.js';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';

/**
 * DESIGN.md section 16: a merchant sees only its own money. Two merchants over the real api: for every route of the
 * OpenAPI document that takes an id, merchant B with merchant A's ids gets exactly what a missing id gets (404 for
 * every route a merchant may call) and changes nothing. The routes come from the document, so a new route is
 * covered, or fails this test, without anyone remembering to add it.
 */
describe('tenants: a merchant sees only its own money', () => {
  let stack: TestStack;
  let efi: EfiSimulator;
  let doc: OpenAPIObject;
  let merchantB: { Authorization: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_500 });
    stack = await startTestStack({ efi });
    doc = buildOpenApiDocument(stack.app as NestFastifyApplication);
    merchantB = { Authorization: `Bearer ${await stack.app.get(ApiTokenService).create(`merchant-b-${randomUUID().slice(0, 8)}`, 'merchant')}` };
    // Merchant A's money: a succeeded charge, a refund of it, an account and a payout from it.
    const charge = await submit(stack, (await createCharge(stack)).id);
    expect(charge.status).toBe('succeeded');
    ids.charge = charge.id;
    ids.refund = (await refund(stack, charge.id, 100)).id;
    ids.account = await fundedAccount(stack, 5_000);
    const payout = await stack.http.post(`/accounts/${ids.account}/payouts`).set(stack.auth('merchant')).send(payoutBody(1_000));
    expect(payout.status, JSON.stringify(payout.body)).toBe(201);
    ids.payout = payout.body.id;
    const endpoint = await stack.http.post('/webhook-endpoints').set(stack.auth('merchant')).send({ url: 'http://127.0.0.1:9/hooks/tenancy' });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    ids.webhookEndpoint = endpoint.body.id;
  });
  afterAll(async () => {
    await stack.close();
    await efi.close();
  });

  /** What merchant A has, as rows: nothing B does may change any of it. */
  const snapshotOfA = () =>
    stack.db.query(
      `SELECT (SELECT json_agg(c ORDER BY c.id) FROM charges c WHERE c.merchant_id = $1) AS charges,
              (SELECT json_agg(a ORDER BY a.id) FROM attempts a JOIN charges c ON c.id = a.charge_id WHERE c.merchant_id = $1) AS attempts,
              (SELECT json_agg(r ORDER BY r.id) FROM refunds r WHERE r.merchant_id = $1) AS refunds,
              (SELECT json_agg(l ORDER BY l.id) FROM ledger_accounts l WHERE l.merchant_id = $1) AS accounts,
              (SELECT count(*) FROM ledger_entries e JOIN ledger_accounts l ON l.id = e.account_id WHERE l.merchant_id = $1) AS entries,
              (SELECT count(*) FROM payouts p JOIN ledger_accounts l ON l.id = p.account_id WHERE l.merchant_id = $1) AS payouts,
              (SELECT json_agg(w ORDER BY w.id) FROM webhook_endpoints w WHERE w.merchant_id = $1) AS webhook_endpoints,
              (SELECT count(*) FROM events e WHERE e.merchant_id = $1) AS events`,
      [stack.merchantId],
    );

  /** The body a merchant would send to a route, so validation passes and the id is what decides. */
  function bodyFor(path: string): Record<string, unknown> {
    if (path.endsWith('/refunds')) return { amountCents: 100 };
    if (path.endsWith('/payouts')) return payoutBody(100);
    if (path.endsWith('/credits')) return { amountCents: 100, reference: `x-${randomUUID()}` };
    return {};
  }

  /** A's id for the resource a path is about; anything else gets a random one (a route for reviewers or admins). */
  function idsFor(path: string, own: boolean): string {
    const resource = /^\/(charges|refunds|accounts|payouts|webhook-endpoints)\/\{id\}/.exec(path)?.[1];
    const real = resource ? ids[{ charges: 'charge', refunds: 'refund', accounts: 'account', payouts: 'payout', 'webhook-endpoints': 'webhookEndpoint' }[resource as 'charges']] : undefined;
    return path.replace(/\{(\w+)\}/g, () => (own && real ? real : randomUUID()));
  }

  it("answers merchant B on every route that takes an id exactly as for a missing id (404 where a merchant may call), changing nothing of A's", async () => {
    const before = await snapshotOfA();
    const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      (['get', 'post', 'put', 'patch', 'delete'] as const).filter((m) => item[m]).map((method) => ({ method, path })),
    );
    const withIds = routes.filter((r) => /\{\w+\}/.test(r.path));
    expect(withIds.length).toBeGreaterThanOrEqual(15);
    const answered: Array<{ route: string; theirs: number; missing: number }> = [];
    for (const { method, path } of withIds) {
      const call = (url: string) => stack.http[method](url).set(merchantB).set('Idempotency-Key', randomUUID()).send(bodyFor(path));
      const theirs = await call(idsFor(path, true));
      const missing = await call(idsFor(path, false));
      answered.push({ route: `${method.toUpperCase()} ${path}`, theirs: theirs.status, missing: missing.status });
      expect(JSON.stringify(theirs.body)).not.toContain(stack.tokenNames.merchant);
    }
    // No existence oracle: A's id and a missing id look the same to B, on every route.
    expect(answered.filter((a) => a.theirs !== a.missing)).toEqual([]);
    // Every route a merchant may call answers 404; the others refuse the role (403) whatever the id.
    expect(answered.filter((a) => a.theirs !== 404 && a.theirs !== 403)).toEqual([]);
    const merchantRoutes = answered.filter((a) => a.theirs === 404).map((a) => a.route);
    for (const route of ['GET /charges/{id}', 'POST /charges/{id}/submit', 'POST /charges/{id}/refunds', 'GET /refunds/{id}', 'POST /refunds/{id}/submit', 'GET /accounts/{id}', 'GET /accounts/{id}/balance', 'GET /accounts/{id}/entries', 'POST /accounts/{id}/payouts', 'GET /payouts/{id}',
      'GET /webhook-endpoints/{id}', 'PATCH /webhook-endpoints/{id}', 'DELETE /webhook-endpoints/{id}', 'POST /webhook-endpoints/{id}/rotate-secret', 'POST /webhook-endpoints/{id}/test']) {
      expect(merchantRoutes).toContain(route);
    }
    expect(await snapshotOfA()).toEqual(before);
    // A still sees all of it.
    for (const path of [`/charges/${ids.charge}`, `/refunds/${ids.refund}`, `/accounts/${ids.account}`, `/payouts/${ids.payout}`, `/webhook-endpoints/${ids.webhookEndpoint}`]) {
      expect((await stack.http.get(path).set(stack.auth('merchant'))).status, path).toBe(200);
    }
  });

  it('lets both merchants use one order id, and names a charge in a 409 only to its own merchant', async () => {
    const body = newChargeBody();
    const mine = await stack.http.post('/charges').set(stack.auth('merchant')).send(body);
    const theirs = await stack.http.post('/charges').set(merchantB).send(body);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const again = await stack.http.post('/charges').set(merchantB).send(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'charge_exists', details: { chargeId: theirs.body.id } });
    expect(JSON.stringify(again.body)).not.toContain(mine.body.id);
  });

  it('shows reviewers and admins every merchant, naming the merchant', async () => {
    expect((await stack.http.get(`/charges/${ids.charge}`).set(stack.auth('admin'))).body.merchantId).toBe(stack.merchantId);
  });
});

describe('people, not tokens', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { REVIEW_FOUR_EYES_AMOUNT_CENTS: '1000' } });
  });
  afterAll(async () => stack.close());

  it('never lets two tokens of one person confirm each other, and a second person may', async () => {
    const tokens = stack.app.get(ApiTokenService);
    const person = `alice-${randomUUID().slice(0, 8)}`;
    const first = { Authorization: `Bearer ${await tokens.create(`${person}-laptop`, 'reviewer', { holder: person })}` };
    const second = { Authorization: `Bearer ${await tokens.create(`${person}-phone`, 'reviewer', { holder: person })}` };
    const bob = await newReviewer(stack, 'bob');
    const { unknownAttemptInReview } = await import('./support/review.js');
    const item = await unknownAttemptInReview(stack, 'hang_after_create', { amountCents: 4_990 });
    await stack.http.post(`/review/items/${item.itemId}/claim`).set(first).expect(200);
    const proposed = await stack.http.post(`/review/items/${item.itemId}/decision`).set(first).send({ action: 'succeeded', providerChargeId: item.intentId, reason: 'the intent succeeded in full' });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body).toMatchObject({ state: 'awaiting_second', decision: { decidedBy: person } });
    const self = await stack.http.post(`/review/items/${item.itemId}/confirm`).set(second).send({ reason: 'my other laptop agrees' });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('review_second_reviewer_required');
    const confirmed = await stack.http.post(`/review/items/${item.itemId}/confirm`).set(bob.headers).send({ reason: 'checked the intent myself' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 'closed', confirmedBy: bob.name });
  });

  it('never lets whoever proposed a refund approve it', async () => {
    const alice = await newReviewer(stack, 'alice', 'admin');
    const paid = await submit(stack, (await createCharge(stack)).id);
    const { intentAtProvider } = await import('./support/review.js');
    const second = await intentAtProvider(stack, { customer: paid.customerId, attemptId: paid.attempts[0].id, amount: paid.amountCents, currency: paid.currency });
    await stack.db.transaction(async (em) => (await import('@app/review/items')).openReviewItem(em, paid.attempts[0].id, 'duplicate_provider_charges', { second }));
    const [{ id: itemId }] = await stack.db.query(`SELECT id FROM review_items WHERE attempt_id = $1`, [paid.attempts[0].id]);
    await stack.http.post(`/review/items/${itemId}/claim`).set(alice.headers).expect(200);
    const ack = await stack.http.post(`/review/items/${itemId}/decision`).set(alice.headers).send({ action: 'acknowledge', followUp: 'refund_needed', providerChargeId: second, reason: 'charged twice' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const [proposal] = await stack.db.query(`SELECT id, proposed_by FROM refund_proposals WHERE review_item_id = $1`, [itemId]);
    expect(proposal.proposed_by).toBe(alice.name);
    const selfApproval = await stack.http.post(`/reconciliation/refund-proposals/${proposal.id}/approve`).set(alice.headers).send({ note: 'mine' });
    expect(selfApproval.status).toBe(403);
    expect(selfApproval.body.code).toBe('refund_proposal_self_approval');
    // Even past the code, the database refuses it.
    await expect(stack.db.query(`UPDATE refund_proposals SET decided_by = proposed_by, state = 'executed', refund_id = NULL WHERE id = $1`, [proposal.id])).rejects.toMatchObject({
      driverError: { code: '23514' },
    });
    expect((await stack.http.post(`/reconciliation/refund-proposals/${proposal.id}/approve`).set(stack.auth('admin')).send({ note: 'a second person' })).status).toBe(200);
  });

  it('moves no balance for a large admin credit until a second admin (another person) confirms it', async () => {
    const account = await fundedAccount(stack, 0);
    const bob = await newReviewer(stack, 'bob', 'admin');
    const carol = await newReviewer(stack, 'carol', 'admin');
    const balance = async () => (await stack.http.get(`/accounts/${account}/balance`).set(stack.auth('admin'))).body.availableCents as number;
    const asked = await stack.http.post(`/accounts/${account}/credits`).set(bob.headers).set('Idempotency-Key', randomUUID()).send({ amountCents: 5_000, reference: 'wire-2026-12-04' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.request).toMatchObject({ amountCents: 5_000, requestedBy: bob.name, state: 'awaiting_second' });
    expect(await balance()).toBe(0);
    const self = await stack.http.post(`/accounts/${account}/credits/${asked.body.request.id}/confirm`).set(bob.headers).send({ reason: 'my own wire' });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('credit_self_confirmation');
    expect(await balance()).toBe(0);
    const confirmed = await stack.http.post(`/accounts/${account}/credits/${asked.body.request.id}/confirm`).set(carol.headers).send({ reason: 'matches the bank statement' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(await balance()).toBe(5_000);
    expect((await stack.http.post(`/accounts/${account}/credits/${asked.body.request.id}/confirm`).set(carol.headers).send({ reason: 'again' })).status).toBe(409);
    // Even past the code, the database refuses a confirmation by the one who asked.
    await expect(stack.db.query(`UPDATE ledger_credit_requests SET confirmed_by = requested_by WHERE id = $1`, [asked.body.request.id])).rejects.toMatchObject({ driverError: { code: '23514' } });
    expect(await balance()).toBe(5_000);
  });

  it('executes a large refund proposal only when a second admin approves it', async () => {
    const { insertRefundProposal } = await import('./support/reconciliation.js');
    const [planted] = stack.sim.plantCharges([{ amount: 2_500 }]);
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 2_500 });
    const dave = await newReviewer(stack, 'dave', 'admin');
    const erin = await newReviewer(stack, 'erin', 'admin');
    const first = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(dave.headers).send({ note: 'not ours' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ state: 'awaiting_second', approvedBy: dave.name, refundId: null });
    expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId })).toEqual([]);
    const again = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(dave.headers).send({ note: 'really' });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('refund_proposal_self_approval');
    const second = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(erin.headers).send({ note: 'agreed' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ state: 'executed', approvedBy: dave.name, decidedBy: erin.name });
    expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId }).map((r) => r.amount)).toEqual([2_500]);
  });

  it('refuses a revoked token at once in the process that revoked it', async () => {
    const tokens = stack.app.get(ApiTokenService);
    const name = `revoked-${randomUUID().slice(0, 8)}`;
    const token = await tokens.create(name, 'merchant');
    expect((await stack.http.post('/charges').set('Authorization', `Bearer ${token}`).send(newChargeBody())).status).toBe(201);
    expect(await tokens.revoke(name)).toBe(true);
    expect((await stack.http.post('/charges').set('Authorization', `Bearer ${token}`).send(newChargeBody())).status).toBe(401);
  });

  it('makes API_TOKENS the setting exactly: a token that left it stops working at the next boot, a token:create one lives on', async () => {
    const tokens = stack.app.get(ApiTokenService);
    const kept = `reviewer:carol-${randomUUID().slice(0, 8)}:${randomUUID()}`;
    const dropped = `merchant:${randomUUID()}`;
    const created = await tokens.create(`cli-${randomUUID().slice(0, 8)}`, 'merchant');
    await tokens.bootstrap(`${kept},${dropped}`);
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    expect((await stack.http.get('/review/items').set(as(kept.split(':')[2]))).status).toBe(200);
    expect((await stack.http.post('/charges').set(as(dropped.split(':')[1])).send(newChargeBody())).status).toBe(201);
    await tokens.bootstrap(kept);
    expect((await stack.http.post('/charges').set(as(dropped.split(':')[1])).send(newChargeBody())).status).toBe(401);
    // Refused by this process, not revoked for every other: a rolling deploy with another setting locks nobody out.
    const [row] = await stack.db.query(`SELECT revoked_at FROM api_tokens WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [dropped.split(':')[1]]);
    expect(row.revoked_at).toBeNull();
    expect((await stack.http.get('/review/items').set(as(kept.split(':')[2]))).status).toBe(200);
    expect((await stack.http.post('/charges').set(as(created)).send(newChargeBody())).status).toBe(201);
  });
});

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

describe('the edge: every webhook proves who sent it, and failed authentications are limited', () => {
  let stack: TestStack;
  let unconfigured: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { AUTH_FAILURE_LIMIT: '20', METRICS_TOKEN: METRICS_TOKEN } });
    // A deployment that configured no webhook secret at all: every provider's route must refuse everything.
    unconfigured = await startTestStack({ sim: stack.sim, env: { STRIPE_WEBHOOK_SECRET: undefined, ASAAS_API_KEY: undefined, ASAAS_WEBHOOK_TOKEN: undefined } });
  });
  afterAll(async () => {
    await unconfigured.close();
    await stack.close();
  });

  const eventRows = (s: TestStack) => s.db.query(`SELECT count(*)::int AS n FROM webhook_events`).then((r) => r[0].n as number);

  it('changes no row for a forged or unsigned event of any provider, configured or not', async () => {
    const paid = await submit(stack, (await createCharge(stack)).id);
    const attemptId = paid.attempts[0].id;
    const succeeded = JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'payment_intent.payment_failed', created: Math.floor(Date.now() / 1000), data: { object: { id: paid.attempts[0].providerChargeId, object: 'payment_intent', amount: 4990, currency: 'usd', metadata: { attempt_id: attemptId } } } });
    const pix = { pix: [{ endToEndId: 'E1', valor: '49.90', status: 'NAO_REALIZADO', gnExtras: { idEnvio: attemptId.replace(/-/g, '') } }] };
    const asaas = { id: `evt_${randomUUID()}`, event: 'PAYMENT_RECEIVED', payment: { id: 'pay_1', externalReference: attemptId, value: 49.9, status: 'RECEIVED' } };
    for (const s of [stack, unconfigured]) {
      const before = { events: await eventRows(s), attempt: await s.db.query(`SELECT status, provider_ref FROM attempts WHERE id = $1`, [attemptId]) };
      const answers = [
        await s.http.post('/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signStripePayload(succeeded, 'whsec_forged', Math.floor(Date.now() / 1000))).send(succeeded),
        await s.http.post('/webhooks/stripe').set('Content-Type', 'application/json').send(succeeded),
        await s.http.post('/webhooks/asaas').set('asaas-access-token', 'not-the-token-at-all').send(asaas),
        await s.http.post('/webhooks/asaas').send(asaas),
        await s.http.post('/webhooks/efi/pix?hmac=guess').send(pix),
        await s.http.post('/webhooks/efi/pix').send(pix),
      ].map((r) => r.status);
      // Configured: the signature or token is refused (400); not configured: there is no such route (404).
      expect(answers).toEqual(s === stack ? [400, 400, 400, 400, 404, 404] : [404, 404, 404, 404, 404, 404]);
      expect({ events: await eventRows(s), attempt: await s.db.query(`SELECT status, provider_ref FROM attempts WHERE id = $1`, [attemptId]) }).toEqual(before);
    }
  });

  it("keeps an event of one provider carrying another provider's attempt id unmatched, moving nothing", async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await submit(stack, (await createCharge(stack, { customerId })).id);
    const stripeAttempt = charge.attempts[0];
    expect(stripeAttempt.status).toBe('unknown');
    const eventId = `evt_${randomUUID()}`;
    const res = await stack.http
      .post('/webhooks/asaas')
      .set('asaas-access-token', DEFAULT_ASAAS_WEBHOOK_TOKEN)
      .send({ id: eventId, event: 'PAYMENT_RECEIVED', payment: { id: `pay_${randomUUID().slice(0, 8)}`, externalReference: stripeAttempt.id, value: 49.9, status: 'RECEIVED' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ duplicate: false, disposition: 'unmatched' });
    const [row] = await stack.db.query(`SELECT attempt_id, disposition FROM webhook_events WHERE provider = 'asaas' AND event_id = $1`, [eventId]);
    expect(row).toEqual({ attempt_id: null, disposition: 'unmatched' });
    const [attempt] = await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [stripeAttempt.id]);
    expect(attempt.status).toBe('unknown');
  });

  it('keeps a success without amount and currency as evidence and applies nothing', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await submit(stack, (await createCharge(stack, { customerId })).id);
    const attemptId = charge.attempts[0].id;
    const raw = JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'payment_intent.succeeded', created: Math.floor(Date.now() / 1000), data: { object: { id: `pi_${randomUUID().slice(0, 8)}`, object: 'payment_intent', metadata: { attempt_id: attemptId } } } });
    const res = await stack.http.post('/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signStripePayload(raw, 'whsec_dev_simulator', Math.floor(Date.now() / 1000))).send(raw);
    expect(res.body).toEqual({ duplicate: false, disposition: 'unproven' });
    expect((await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status).toBe('unknown');
  });

  it('serves /metrics only with METRICS_TOKEN when it is set', async () => {
    expect((await stack.http.get('/metrics')).status).toBe(401);
    expect((await stack.http.get('/metrics').set('Authorization', 'Bearer not-the-metrics-token')).status).toBe(401);
    const scraped = await stack.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('charge_once_');
  });

  it('answers 429 with Retry-After once one address has failed to authenticate 20 times, and 401 before', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 30; i++) {
      const res = await stack.http.get(`/charges/${randomUUID()}`).set('Authorization', `Bearer bad-token-${i}-${randomUUID()}`);
      statuses.push(res.status);
      retryAfter ??= res.headers['retry-after'];
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
