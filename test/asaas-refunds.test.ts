import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCharge, transitionsOf } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { committedCents, getRefund, postRefund, succeededCharge } from './support/refunds.js';
import { insertRefundProposal } from './support/reconciliation.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 24, hole 7: Asaas refunds (`POST /v3/payments/{id}/refund`) carry no idempotency key, so a refund whose
 * first send's outcome is unknown is answered by reading the payment's refunds, and sent again only once that
 * read proves there is none. Real api + worker, PostgreSQL, Redis and the Asaas simulator over HTTP.
 */
describe('Asaas refunds', () => {
  let stack: TestStack;
  // A refund missing from the payment counts as absent only after the consistency window (and the grace, 0 here).
  beforeAll(async () => void (stack = await startTestStack({ worker: true, env: { ASAAS_CONSISTENCY_WINDOW_MS: '400', RESOLUTION_MAX_TRIES: '20' } })));
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sim.setFaults({});
    stack.sim.configure({ asaasWebhook: { url: null } });
  });

  const asaasCharge = () => succeededCharge(stack, ASAAS_PROFILE.chargeBody());
  const refundsAt = (paymentId: string) => stack.sim.asaasPayments().find((p) => p.id === paymentId)?.refunds ?? [];

  it('refunds part of an Asaas charge once through the refund API, matched by the attempt in its description', async () => {
    const charge = await asaasCharge();
    const paymentId = charge.attempts[0].providerChargeId!;
    stack.sim.configure({ asaasWebhook: { url: `${stack.baseUrl}/webhooks/asaas` } });
    const res = await postRefund(stack, charge.id, { amountCents: 1000, reason: 'returned' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ amountCents: 1000, currency: 'brl', status: 'succeeded' });
    const attempt = res.body.attempts[0];
    expect(attempt).toMatchObject({ status: 'succeeded', resolvedBy: 'submit', httpAttempts: 1 });
    expect(refundsAt(paymentId)).toEqual([expect.objectContaining({ value: 10, status: 'DONE', description: expect.stringContaining(attempt.id) })]);
    expect(stack.sim.stats().asaas.requests.refunds).toBe(1);
    expect(await committedCents(stack, charge.id)).toBe(1000);
    // Asaas announces the refund (PAYMENT_PARTIALLY_REFUNDED, the payment's refunds inside): ours explains it, no person is asked.
    await stack.sim.webhooksIdle();
    expect(stack.sim.asaasWebhookDeliveries().filter((d) => d.type === 'PAYMENT_PARTIALLY_REFUNDED' && d.outcome === 'delivered')).not.toHaveLength(0);
    const view = await getCharge(stack, charge.id);
    expect(view).toMatchObject({ status: 'partially_refunded', reviewItems: [] });
  });

  it('a refund whose response is lost is found among the payment refunds by query, never sent twice', async () => {
    const charge = await asaasCharge();
    const paymentId = charge.attempts[0].providerChargeId!;
    const before = stack.sim.stats().asaas.requests.refunds;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId: charge.customerId } }] });
    const res = await postRefund(stack, charge.id, { amountCents: charge.amountCents });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.attempts[0].status).toBe('unknown');
    expect(stack.sim.stats().faultsInjected.hang_after_create).toBeGreaterThanOrEqual(1);

    const done = await waitFor(() => getRefund(stack, res.body.id), (r) => r.status === 'succeeded', 10_000, 'the lost refund to be found');
    expect(done.attempts).toHaveLength(1);
    expect(await transitionsOf(stack, done.attempts[0].id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:resolver']);
    expect(stack.sim.stats().asaas.requests.refunds - before).toBe(1);
    expect(refundsAt(paymentId)).toHaveLength(1);
  });

  it('a refund Asaas never executed is failed only once its refunds prove none, and the retry sends exactly once more', async () => {
    const charge = await asaasCharge();
    const paymentId = charge.attempts[0].providerChargeId!;
    const before = stack.sim.stats().asaas.requests.refunds;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId: charge.customerId } }] });
    const res = await postRefund(stack, charge.id, { amountCents: 1500 });
    expect(res.body.attempts[0].status).toBe('unknown');
    expect(stack.sim.stats().faultsInjected['500_before_create']).toBeGreaterThanOrEqual(1);
    const failed = await waitFor(() => getRefund(stack, res.body.id), (r) => r.status === 'failed', 10_000, 'the refund to be failed as not found');
    expect(failed.attempts[0]).toMatchObject({ status: 'failed', resolvedBy: 'resolver' });
    expect(refundsAt(paymentId)).toEqual([]);
    const before2 = stack.sim.stats().asaas.requests.retrieves;

    const retried = await stack.http.post(`/refunds/${res.body.id}/submit`).set(stack.auth('merchant'));
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const done = await waitFor(() => getRefund(stack, res.body.id), (r) => r.status === 'succeeded', 10_000, 'the retry');
    expect(done.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    // The failed attempt's refunds were read once more before the new one went out.
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM provider_calls WHERE attempt_id = $1 AND kind = 'recheck'`, [failed.attempts[0].id]);
    expect(n).toBe(1);
    expect(stack.sim.stats().asaas.requests.retrieves).toBeGreaterThan(before2);
    expect(stack.sim.stats().asaas.requests.refunds - before).toBe(2);
    expect(refundsAt(paymentId)).toEqual([expect.objectContaining({ value: 15, status: 'DONE' })]);
  });

  it('a refund proposal for a duplicate Asaas payment executes and refunds only the duplicate', async () => {
    const charge = await asaasCharge();
    const attemptId = charge.attempts[0].id;
    // A second payment under the same reference: the duplicate a nightly run would propose to give back.
    const [duplicate] = stack.sim.plantAsaasPayments([{ amountCents: charge.amountCents, paymentDate: new Date().toISOString().slice(0, 10), externalReference: attemptId, customer: charge.customerId }]);
    const { proposalId } = await insertRefundProposal(stack, { provider: 'asaas', providerChargeId: duplicate.id, amountCents: charge.amountCents, kind: 'duplicate_charge', chargeId: charge.id });
    const approved = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({ note: 'duplicate' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: 'executed', refundId: expect.any(String) });
    const refund = await waitFor(() => getRefund(stack, approved.body.refundId, 'admin'), (r) => r.status === 'succeeded', 10_000, 'the duplicate refund');
    expect(refund).toMatchObject({ chargeId: null, providerChargeId: duplicate.id, amountCents: charge.amountCents });
    expect(refundsAt(duplicate.id)).toHaveLength(1);
    expect(refundsAt(charge.attempts[0].providerChargeId!)).toEqual([]);
  });
});
