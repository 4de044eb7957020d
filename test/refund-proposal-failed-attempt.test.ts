import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderFactApplier } from '@app/attempts';
import { createCharge, getCharge, submit } from './support/charges.js';
import { committedCents, getRefund } from './support/refunds.js';
import { insertRefundProposal, insertSucceededAttempt } from './support/reconciliation.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 24, hole 7 (second half): a refund proposal for a provider charge held by a *failed* attempt of ours
 * executes after a fresh provider check, under the provider-charge lock. The customer's money taken late for a
 * charge we had failed is given back through that charge (its refund path and cap), never beside it.
 */
describe('refund proposals for a provider charge held by a failed attempt', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true });
  });
  afterAll(async () => stack.close());
  beforeEach(() => stack.sim.setFaults({}));

  /** A charge whose attempt we failed (as the resolver would after a lagging miss) while the provider captured it. */
  /** `captured: false`: the intent is left processing (never captured), as a statement may still have listed it. */
  async function failedButCaptured({ captured = true } = {}) {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId, ...(captured ? {} : { paymentMethodId: 'pm_sim_processing' }) });
    const attemptId = (await submit(stack, charge.id)).attempts[0].id;
    const [intent] = stack.sim.intents({ attemptId });
    expect(intent.status).toBe(captured ? 'succeeded' : 'processing');
    await stack.db.query(`UPDATE attempts SET status = 'failed', resolved_at = now(), resolved_by = 'resolver' WHERE id = $1`, [attemptId]);
    // Last night's statement saw the intent and no success of ours: a provider-only proposal naming the charge.
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: intent.id, amountCents: charge.amountCents, chargeId: charge.id });
    return { charge, attemptId, intentId: intent.id, proposalId };
  }
  const approve = (proposalId: string) => stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({ note: 'the order was cancelled' });

  it('a capture nobody recorded yet: the check records it as the late capture, and the refund goes through the charge', async () => {
    const { charge, attemptId, intentId, proposalId } = await failedButCaptured();
    const retrievesBefore = stack.sim.stats().requests.retrieves;
    const approved = await approve(proposalId);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: 'executed', refundId: expect.any(String) });
    expect(stack.sim.stats().requests.retrieves).toBeGreaterThan(retrievesBefore);

    const refund = await getRefund(stack, approved.body.refundId, 'admin');
    expect(refund).toMatchObject({ chargeId: charge.id, amountCents: charge.amountCents, status: 'succeeded' });
    expect(stack.sim.refunds({ paymentIntentId: intentId }).map((r) => r.amount)).toEqual([charge.amountCents]);
    const view = await getCharge(stack, charge.id);
    expect(view.capturedBy).toEqual({ attemptId, providerChargeId: intentId, late: true });
    expect(view.status).toBe('refunded');
    expect(await committedCents(stack, charge.id)).toBe(charge.amountCents);
  });

  it('a recorded late capture, refused until now: executes through the charge, once, within its cap', async () => {
    const { charge, attemptId, intentId, proposalId } = await failedButCaptured();
    await stack.db.transaction((em) =>
      stack.app.get(ProviderFactApplier).apply(em, attemptId, { outcome: 'succeeded', providerChargeId: intentId, amountCents: charge.amountCents, currency: charge.currency }, { cause: 'webhook', actor: 'webhook:stripe', evidence: {} }),
    );
    expect((await getCharge(stack, charge.id)).capturedBy).toMatchObject({ late: true });
    const approved = await approve(proposalId);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await getRefund(stack, approved.body.refundId, 'admin'))).toMatchObject({ chargeId: charge.id, status: 'succeeded' });
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toHaveLength(1);
    // Approving again, or refunding the charge past its capture, moves nothing more.
    expect((await approve(proposalId)).status).toBe(409);
    expect((await stack.http.post(`/charges/${charge.id}/refunds`).set(stack.auth('merchant')).send({ amountCents: 1 })).status).toBe(422);
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toHaveLength(1);
  });

  it('a duplicate a failed attempt left behind, its charge captured by another: executes beside the charge after the check, asking nobody again', async () => {
    const { charge, attemptId, intentId, proposalId } = await failedButCaptured();
    const [other] = stack.sim.plantCharges([{ amount: charge.amountCents, customer: charge.customerId }]);
    await insertSucceededAttempt(stack, charge.id, other.paymentIntentId);
    const approved = await approve(proposalId);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await getRefund(stack, approved.body.refundId, 'admin')).toMatchObject({ chargeId: null, providerChargeId: intentId, status: 'succeeded' });
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toHaveLength(1);
    expect(stack.sim.refunds({ paymentIntentId: other.paymentIntentId })).toEqual([]);
    const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM provider_calls WHERE attempt_id = $1 AND kind = 'proposal_check'`, [attemptId]);
    expect(n).toBe(1);
    expect(await stack.db.query(`SELECT id FROM review_items WHERE attempt_id = $1`, [attemptId])).toEqual([]);
  });

  it('a provider charge the fresh check finds not captured is refused, and nothing is refunded', async () => {
    const { charge, intentId, proposalId } = await failedButCaptured({ captured: false });
    stack.sim.setIntentStatus(intentId, 'canceled');
    const refused = await approve(proposalId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'refund_proposal_not_captured', details: { providerChargeId: intentId } });
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toEqual([]);
    expect(await stack.db.query(`SELECT state FROM refund_proposals WHERE id = $1`, [proposalId])).toEqual([{ state: 'proposed' }]);
    expect((await getCharge(stack, charge.id)).refunds).toEqual([]);
  });

  it('a provider that cannot be asked leaves the proposal as it was (503), nothing refunded', async () => {
    const { intentId, proposalId } = await failedButCaptured();
    stack.sim.setFaults({ rules: [{ on: 'query', fault: '500', times: 5 }] });
    const refused = await approve(proposalId);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('refund_proposal_unverified');
    expect(stack.sim.stats().faultsInjected.query_500).toBeGreaterThanOrEqual(1);
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toEqual([]);
    expect(await stack.db.query(`SELECT state FROM refund_proposals WHERE id = $1`, [proposalId])).toEqual([{ state: 'proposed' }]);
  });
});
