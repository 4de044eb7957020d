import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderHttpClient } from '@app/gateways';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asaasDay } from './asaas-calendar.js';
import { startSimulator } from '../start-simulator.js';
import type { Simulator } from '../simulator.js';
import { controlCall, waitFor } from '../simulator-test-client.js';

const TOKEN = 'asaas-spec-webhook-token';
const client = new ProviderHttpClient({ connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });

let sim: Simulator;
let receiver: http.Server;
const received: Array<{ token: string | undefined; event: { id: string; event: string; payment: { id: string; status: string } } }> = [];

async function asaas(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, token: string | null = '$aact_sim') {
  const headers: Record<string, string> = token === null ? {} : { access_token: token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const result = await client.send({ method, url: `${sim.apiUrl}${path}`, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (result.kind !== 'response') return { status: null, kind: result.kind, json: null };
  return { status: result.status, kind: result.kind, json: result.body ? JSON.parse(result.body) : null };
}

const payment = (externalReference: string, overrides: Record<string, unknown> = {}) => ({
  customer: 'cus_000005219613', billingType: 'CREDIT_CARD', value: 49.9, dueDate: '2026-12-02', creditCardToken: '76496073-536f-4835-80db-c45d00f33695', remoteIp: '203.0.113.7', externalReference, ...overrides,
});

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      received.push({ token: request.headers['asaas-access-token'] as string | undefined, event: JSON.parse(raw) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/asaas`;
  sim = await startSimulator({ hangMs: 3_000, asaasWebhook: { url, secret: TOKEN } });
});
afterAll(async () => {
  await sim.close();
  await new Promise((done) => receiver.close(done));
});
beforeEach(async () => {
  // Webhooks of the previous test's payments must not land in this one.
  await sim.webhooksIdle();
  await sim.reset();
  received.length = 0;
});

describe('the simulated Asaas API', () => {
  it('has no idempotency: the same request sent twice creates two payments under one reference', async () => {
    const first = await asaas('POST', '/v3/payments', payment('att-twice'));
    const second = await asaas('POST', '/v3/payments', payment('att-twice'));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.json.id).not.toBe(second.json.id);
    expect(sim.stats().asaas.createsByExternalReference['att-twice']).toBe(2);
    expect(sim.asaasPayments({ externalReference: 'att-twice' })).toHaveLength(2);
    const listed = await asaas('GET', '/v3/payments?externalReference=att-twice');
    expect(listed.json).toMatchObject({ object: 'list', totalCount: 2, hasMore: false });
  });

  it('charges a card with its token at once (CONFIRMED) and leaves Pix waiting for the payer (PENDING); value stays decimal reais', async () => {
    const card = await asaas('POST', '/v3/payments', payment('att-card'));
    const pix = await asaas('POST', '/v3/payments', payment('att-pix', { billingType: 'PIX', value: 19.99, creditCardToken: undefined, remoteIp: undefined }));
    expect(card.json).toMatchObject({ object: 'payment', status: 'CONFIRMED', value: 49.9, externalReference: 'att-card', deleted: false });
    expect(card.json.id).toMatch(/^pay_/);
    expect(pix.json).toMatchObject({ status: 'PENDING', value: 19.99 });
  });

  it('leaves a card charge without card data waiting on its invoice, and refuses a token without the buyer\'s IP, saving nothing', async () => {
    const invoice = await asaas('POST', '/v3/payments', payment('att-card-invoice', { creditCardToken: undefined, remoteIp: undefined }));
    expect(invoice.json).toMatchObject({ status: 'PENDING', paymentDate: null, invoiceUrl: expect.stringMatching(/^https:\/\//) });
    const noIp = await asaas('POST', '/v3/payments', payment('att-card-no-ip', { remoteIp: undefined }));
    expect(noIp).toMatchObject({ status: 400, json: { errors: [{ code: 'invalid_remoteIp' }] } });
    expect((await asaas('GET', '/v3/payments?externalReference=att-card-no-ip')).json).toMatchObject({ totalCount: 0 });
  });

  it('lists by externalReference only after the list lag; a retrieve by id never lags', async () => {
    sim.configure({ asaasListLagMs: 60_000 });
    const created = await asaas('POST', '/v3/payments', payment('att-lag'));
    expect((await asaas('GET', '/v3/payments?externalReference=att-lag')).json).toMatchObject({ totalCount: 0, data: [] });
    expect((await asaas('GET', `/v3/payments/${created.json.id}`)).json).toMatchObject({ id: created.json.id });
    sim.configure({ asaasListLagMs: 0 });
    expect((await asaas('GET', '/v3/payments?externalReference=att-lag')).json.data).toHaveLength(1);
    expect(sim.stats().asaas.requests).toMatchObject({ creates: 1, lists: 2, retrieves: 1 });
  });

  it('refuses a request without an access token (401) and a value below R$ 5,00 (400), creating nothing', async () => {
    expect((await asaas('POST', '/v3/payments', payment('att-noauth'), null)).status).toBe(401);
    const small = await asaas('POST', '/v3/payments', payment('att-small', { value: 0.1 }));
    expect(small.status).toBe(400);
    expect(small.json.errors[0].code).toBe('invalid_value');
    expect(sim.stats().asaas.paymentsCreated).toBe(0);
  });

  it.each([
    ['500_before_create', 500, 0],
    ['500_after_create', 500, 1],
    ['decline', 400, 0],
    ['429', 429, 0],
  ] as const)('fault %s answers %i and creates %i payments', async (fault, status, created) => {
    sim.setFaults({ rules: [{ fault, match: { attemptId: `att-${fault}` } }] });
    expect((await asaas('POST', '/v3/payments', payment(`att-${fault}`))).status).toBe(status);
    expect(sim.stats().faultsInjected[fault]).toBe(1);
    expect(sim.stats().asaas.paymentsCreated).toBe(created);
  });

  it('hang_after_create creates the payment and never answers', async () => {
    sim.setFaults({ rules: [{ fault: 'hang_after_create' }] });
    const result = await asaas('POST', '/v3/payments', payment('att-hang'));
    expect(result.kind).toBe('no_response');
    expect(sim.stats().asaas.createsByExternalReference['att-hang']).toBe(1);
  });

  it('create_late creates the payment only after hangMs, long after the client gave up', async () => {
    sim.configure({ hangMs: 1_500 });
    sim.setFaults({ rules: [{ fault: 'create_late' }] });
    const result = await asaas('POST', '/v3/payments', payment('att-late'));
    expect(result.kind).toBe('no_response');
    expect(sim.asaasPayments({ externalReference: 'att-late' })).toHaveLength(0);
    await waitFor(() => sim.asaasPayments({ externalReference: 'att-late' }).length === 1, 3_000);
    expect(sim.stats().faultsInjected.create_late).toBe(1);
  });

  it('shares lookup faults with Stripe: a query 500 strikes the next Asaas list', async () => {
    sim.setFaults({ rules: [{ fault: '500', on: 'query' }] });
    expect((await asaas('GET', '/v3/payments?externalReference=x')).status).toBe(500);
    expect(sim.stats().faultsInjected.query_500).toBe(1);
  });

  it('keeps the access token out of its request log', async () => {
    await asaas('POST', '/v3/payments', payment('att-log'));
    const [logged] = sim.asaasRequests('att-log');
    expect(logged.headers.access_token).toBe('[redacted]');
    expect(JSON.parse(logged.rawBody)).toMatchObject({ externalReference: 'att-log' });
  });

  it('sends webhooks with the configured token in asaas-access-token, and the wrong one when forged', async () => {
    const created = await asaas('POST', '/v3/payments', payment('att-hook', { billingType: 'PIX' }));
    await waitFor(() => received.length === 1);
    expect(received[0]).toMatchObject({ token: TOKEN, event: { event: 'PAYMENT_CREATED', payment: { id: created.json.id } } });
    sim.setAsaasPaymentStatus(created.json.id, 'RECEIVED');
    await waitFor(() => received.length === 2);
    expect(received[1].event).toMatchObject({ event: 'PAYMENT_RECEIVED', payment: { status: 'RECEIVED', externalReference: 'att-hook' } });
    await sim.sendAsaasWebhook({ event: 'PAYMENT_RECEIVED', paymentId: created.json.id, forged: true });
    expect(received[2].token).not.toBe(TOKEN);
    expect(sim.asaasWebhookDeliveries().map((d) => d.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('answers the control API for Asaas payments', async () => {
    const created = await asaas('POST', '/v3/payments', payment('att-ctl', { billingType: 'BOLETO' }));
    expect((await controlCall(sim, 'GET', '/_sim/asaas/payments?externalReference=att-ctl')).json).toHaveLength(1);
    const moved = await controlCall(sim, 'POST', `/_sim/asaas/payments/${created.json.id}/status`, { status: 'RECEIVED' });
    expect(moved.json.status).toBe('RECEIVED');
    expect((await controlCall(sim, 'POST', `/_sim/asaas/payments/${created.json.id}/status`, { status: 'NOPE' })).status).toBe(400);
  });

  it('reads a boleto past its due date (by its own calendar) as OVERDUE, and removes only an unpaid one', async () => {
    const due = asaasDay(Date.now());
    const boleto = await asaas('POST', '/v3/payments', payment('att-due', { billingType: 'BOLETO', dueDate: due }));
    expect((await asaas('GET', `/v3/payments/${boleto.json.id}`)).json.status).toBe('PENDING');
    sim.configure({ asaasClockOffsetDays: 1 });
    expect((await asaas('GET', `/v3/payments/${boleto.json.id}`)).json.status).toBe('OVERDUE');
    sim.configure({ asaasClockOffsetDays: 0 });
    await waitFor(() => received.some((r) => r.event.event === 'PAYMENT_OVERDUE'));

    expect(await asaas('DELETE', `/v3/payments/${boleto.json.id}`)).toMatchObject({ status: 200, json: { deleted: true, id: boleto.json.id } });
    expect((await asaas('GET', `/v3/payments/${boleto.json.id}`)).json.deleted).toBe(true);
    expect((await asaas('DELETE', `/v3/payments/${boleto.json.id}`)).status).toBe(404);
    const card = await asaas('POST', '/v3/payments', payment('att-card'));
    expect((await asaas('DELETE', `/v3/payments/${card.json.id}`)).status).toBe(400);
    expect(sim.stats().asaas.requests.deletes).toBe(3);
    await waitFor(() => received.some((r) => r.event.event === 'PAYMENT_DELETED'));
  });

  it('refunds a received payment in parts, never past its value, and lists each refund on the payment', async () => {
    const card = await asaas('POST', '/v3/payments', payment('att-refund'));
    const first = await asaas('POST', `/v3/payments/${card.json.id}/refund`, { value: 10, description: 'first' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'CONFIRMED', refunds: [{ value: 10, status: 'DONE', description: 'first' }] });
    expect((await asaas('POST', `/v3/payments/${card.json.id}/refund`, { value: 40 })).status).toBe(400);
    const rest = await asaas('POST', `/v3/payments/${card.json.id}/refund`, { description: 'the rest' });
    expect(rest.json).toMatchObject({ status: 'REFUNDED', refunds: [{ value: 10 }, { value: 39.9, description: 'the rest' }] });
    const pix = await asaas('POST', '/v3/payments', payment('att-unpaid', { billingType: 'PIX' }));
    expect((await asaas('POST', `/v3/payments/${pix.json.id}/refund`, {})).status).toBe(400);
    expect(sim.stats().asaas.requests.refunds).toBe(4);
    await waitFor(() => received.some((r) => r.event.event === 'PAYMENT_REFUNDED'));
  });
  it('holds a refund PENDING off the extrato until settled, then books it on the day asked for', async () => {
    const card = await asaas('POST', '/v3/payments', payment('att-held-refund'));
    const reversals = async (day: string) =>
      ((await asaas('GET', `/v3/financialTransactions?startDate=${day}&finishDate=${day}&limit=100`)).json.data as Array<{ type: string; paymentId: string }>)
        .filter((entry) => entry.type === 'PAYMENT_REVERSAL' && entry.paymentId === card.json.id);
    const today = new Date().toISOString().slice(0, 10);
    sim.configure({ asaasRefundsPending: true });
    const held = await asaas('POST', `/v3/payments/${card.json.id}/refund`, { value: 10 });
    sim.configure({ asaasRefundsPending: false });
    expect(held.json).toMatchObject({ status: 'CONFIRMED', refunds: [{ value: 10, status: 'PENDING' }] });
    expect(await reversals(today)).toEqual([]);
    expect(sim.settleAsaasRefund(card.json.id, 0, 'DONE', '2099-01-02').refunds).toMatchObject([{ status: 'DONE', dateCreated: expect.stringContaining(today) }]);
    expect(await reversals(today)).toEqual([]);
    expect(await reversals('2099-01-02')).toHaveLength(1);
    expect(() => sim.settleAsaasRefund(card.json.id, 0, 'DONE')).toThrow(/no PENDING refund/);
  });
  it('cancels a DONE refund: its reversal stays on its day and a PAYMENT_REFUND_CANCELLED entry is dated the day asked for', async () => {
    const card = await asaas('POST', '/v3/payments', payment('att-cancelled-refund'));
    const entriesOn = async (day: string) =>
      ((await asaas('GET', `/v3/financialTransactions?startDate=${day}&finishDate=${day}&limit=100`)).json.data as Array<{ type: string; paymentId: string; value: number }>)
        .filter((entry) => entry.paymentId === card.json.id && entry.type !== 'PAYMENT_RECEIVED')
        .map(({ type, value }) => ({ type, value }));
    const today = new Date().toISOString().slice(0, 10);
    await asaas('POST', `/v3/payments/${card.json.id}/refund`, { value: 10 });
    expect(sim.settleAsaasRefund(card.json.id, 0, 'CANCELLED', '2099-01-03').refunds).toMatchObject([{ status: 'CANCELLED', value: 10 }]);
    expect(await entriesOn(today)).toEqual([{ type: 'PAYMENT_REVERSAL', value: -10 }]);
    expect(await entriesOn('2099-01-03')).toEqual([{ type: 'PAYMENT_REFUND_CANCELLED', value: 10 }]);
    expect(() => sim.settleAsaasRefund(card.json.id, 0, 'CANCELLED')).toThrow(/no PENDING refund/);
  });
});
