import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderCallEntity, ReviewItemEntity } from '@app/database';
import { signStripePayload } from '@app/gateways';
import { createCharge, getCharge, transitionsOf } from './support/charges.js';
import { committedCents, getRefund, postRefund, refund, succeededCharge } from './support/refunds.js';
import { insertRefundProposal } from './support/reconciliation.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { countFaultsFrom } from './support/fault-counter.js';

/**
 * Issue 12: money back through the same attempt model, never more than was captured. Real api + worker,
 * PostgreSQL, Redis and the simulator over HTTP.
 */
describe('refunds', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '300', RESOLUTION_MAX_TRIES: '20' } });
  });
  afterAll(async () => stack.close());
  beforeEach(() => {
    stack.sim.setFaults({});
    stack.sim.configure({ webhook: { url: null } });
  });

  it('refunds part of a succeeded charge once, shows it on the charge, and replays an Idempotency-Key in its own scope', async () => {
    const charge = await succeededCharge(stack);
    const key = `refund-${randomUUID()}`;
    const first = await postRefund(stack, charge.id, { amountCents: 1000, reason: 'returned' }, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ chargeId: charge.id, amountCents: 1000, currency: 'usd', reason: 'returned', status: 'succeeded' });
    const attempt = first.body.attempts[0];
    expect(attempt).toMatchObject({ status: 'succeeded', httpAttempts: 1, resolvedBy: 'submit' });

    const replay = await postRefund(stack, charge.id, { amountCents: 1000, reason: 'returned' }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect((await postRefund(stack, charge.id, { amountCents: 999 }, key)).status).toBe(422);
    // The same key on POST /charges is another scope: no collision.
    const other = await stack.http.post('/charges').set(stack.auth('merchant')).set('Idempotency-Key', key).send({ orderId: `order-${randomUUID()}`, amountCents: 600, currency: 'usd', customerId: 'cus_x', paymentMethodId: 'pm_card_visa' });
    expect(other.status).toBe(201);

    const [providerRefund] = stack.sim.refunds({ refundAttemptId: attempt.id });
    expect(providerRefund).toMatchObject({ amount: 1000, status: 'succeeded', payment_intent: charge.attempts[0].providerChargeId, metadata: { refund_id: first.body.id } });
    expect(attempt.providerRefundId).toBe(providerRefund.id);
    expect(stack.sim.stats().refundsByIdempotencyKey[attempt.idempotencyKey]).toBe(1);
    expect(stack.sim.requests(attempt.idempotencyKey)[0].rawBody).toContain(`metadata[refund_attempt_id]=${attempt.id}`);

    expect(await getRefund(stack, first.body.id)).toMatchObject({ id: first.body.id, status: 'succeeded' });
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('partially_refunded');
    expect(view.attempts.map((a) => a.id)).toEqual([charge.attempts[0].id]);
    expect(view.refunds).toEqual([{ id: first.body.id, amountCents: 1000, status: 'succeeded' }]);
    expect(await committedCents(stack, charge.id)).toBe(1000);
  });

  it('refuses what cannot be refunded with a clear 4xx and changes nothing', async () => {
    const notCharged = await createCharge(stack);
    const unpaid = await postRefund(stack, notCharged.id, { amountCents: 100 });
    expect(unpaid.status).toBe(422);
    expect(unpaid.body.code).toBe('charge_not_refundable');

    const charge = await succeededCharge(stack);
    const tooMuch = await postRefund(stack, charge.id, { amountCents: 4991 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toContain('refundable amount');
    expect(tooMuch.body.details).toMatchObject({ refundableCents: 4990, requestedCents: 4991 });
    const zero = await postRefund(stack, charge.id, { amountCents: 0 });
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.body.message)).toContain('amountCents');
    expect((await postRefund(stack, randomUUID(), { amountCents: 100 })).status).toBe(404);
    expect((await stack.http.get(`/refunds/${randomUUID()}`).set(stack.auth('merchant'))).status).toBe(404);
    expect((await stack.http.get(`/refunds/${randomUUID()}`)).status).toBe(401);
    expect((await getCharge(stack, charge.id)).refunds).toEqual([]);
    expect(await committedCents(stack, charge.id)).toBe(0);
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! })).toHaveLength(0);
  });

  it('a refund that times out after the provider created it is resolved by query, with no second refund', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const created = await refund(stack, charge.id, 2000);
    expect(created.status).toBe('processing');
    expect(created.attempts[0].status).toBe('unknown');
    const done = await waitFor(() => getRefund(stack, created.id), (r) => r.status === 'succeeded', 10_000, 'the refund to be resolved');
    const attempt = done.attempts[0];
    expect(attempt.resolvedBy).toBe('resolver');
    expect(stack.sim.stats().faultsInjected.hang_after_create).toBeGreaterThanOrEqual(1);
    const providerRefunds = stack.sim.refunds({ refundAttemptId: attempt.id });
    expect(providerRefunds).toHaveLength(1);
    expect(attempt.providerRefundId).toBe(providerRefunds[0].id);
    expect(stack.sim.stats().refundsByIdempotencyKey[attempt.idempotencyKey]).toBe(1);
    expect(stack.sim.requests(attempt.idempotencyKey)).toHaveLength(1);
    expect(stack.sim.stats().requests.refundLists).toBeGreaterThanOrEqual(1);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:resolver']);
    expect(await committedCents(stack, charge.id)).toBe(2000);
  });

  it('500 before create: not found, failed and its amount released; a retry re-checks, opens a new attempt and refunds once', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    const faults = countFaultsFrom(stack.sim);
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const created = await refund(stack, charge.id, 1500);
    const failed = await waitFor(() => getRefund(stack, created.id), (r) => r.status === 'failed', 10_000, 'the refund to fail as not found');
    const first = failed.attempts[0];
    expect(first.resolvedBy).toBe('resolver');
    expect(faults('500_before_create')).toBe(1);
    expect(await transitionsOf(stack, first.id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→failed:resolver']);
    expect(await committedCents(stack, charge.id)).toBe(0);
    expect((await getCharge(stack, charge.id)).refunds).toEqual([{ id: created.id, amountCents: 1500, status: 'failed' }]);

    const retried = await stack.http.post(`/refunds/${created.id}/submit`).set(stack.auth('merchant'));
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.status).toBe('succeeded');
    expect(retried.body.attempts.map((a: { status: string }) => a.status)).toEqual(['failed', 'succeeded']);
    expect(retried.body.attempts[1].idempotencyKey).not.toBe(first.idempotencyKey);
    expect(await stack.db.getRepository(ProviderCallEntity).countBy({ attemptId: first.id, kind: 'recheck' })).toBe(1);
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! })).toHaveLength(1);
    expect(await committedCents(stack, charge.id)).toBe(1500);
    // Submitting a succeeded refund again sends nothing.
    const again = await stack.http.post(`/refunds/${created.id}/submit`).set(stack.auth('merchant'));
    expect(again.body.attempts).toHaveLength(2);
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! })).toHaveLength(1);
  });

  it('20 concurrent partial refunds of one charge never exceed the captured amount: exactly the allowed ones succeed, the rest get 422', async () => {
    const charge = await succeededCharge(stack);
    const results = await Promise.all(Array.from({ length: 20 }, () => postRefund(stack, charge.id, { amountCents: 500 })));
    const statuses = results.map((r) => r.status);
    // 4990 captured: nine refunds of 500 fit, the tenth would make 5000.
    expect(statuses.filter((s) => s === 201)).toHaveLength(9);
    expect(statuses.filter((s) => s === 422)).toHaveLength(11);
    expect(results.filter((r) => r.status === 201).every((r) => r.body.status === 'succeeded')).toBe(true);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.code === 'refund_exceeds_refundable')).toBe(true);
    const atProvider = stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! });
    expect(atProvider.reduce((sum, r) => sum + r.amount, 0)).toBe(4500);
    expect(await committedCents(stack, charge.id)).toBe(4500);
    expect((await getCharge(stack, charge.id)).refunds).toHaveLength(9);
  });

  it('a refund webhook that arrives before the response settles the refund, and the explained charge.refunded opens no review', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, duplicates: 1, reorder: true, dropRate: 0 } });
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const created = await refund(stack, charge.id, 700);
    // The response never came (the read timed out), yet the webhook had already settled it.
    expect(created.status).toBe('succeeded');
    expect(created.attempts[0].resolvedBy).toBe('webhook');
    expect(await transitionsOf(stack, created.attempts[0].id)).toEqual(['new→pending:submit', 'pending→succeeded:webhook']);
    await stack.sim.webhooksIdle();
    const deliveries = stack.sim.webhookDeliveries().filter((d) => d.intentId === created.attempts[0].providerRefundId || d.type === 'charge.refunded');
    expect(deliveries.map((d) => d.type)).toEqual(expect.arrayContaining(['refund.created', 'charge.refunded']));
    const view = await waitFor(() => getCharge(stack, charge.id), (v) => v.refundedCents === 700, 5000, 'the provider refunded total');
    expect(view.refunds).toEqual([{ id: created.id, amountCents: 700, status: 'succeeded' }]);
    const attemptIds = [charge.attempts[0].id, created.attempts[0].id];
    expect(await stack.db.getRepository(ReviewItemEntity).createQueryBuilder('r').where('r.attempt_id IN (:...ids)', { ids: attemptIds }).getCount()).toBe(0);
  });

  it('a refund the provider refuses fails at once and gives its amount back', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const refused = await refund(stack, charge.id, 4990);
    expect(refused.status).toBe('failed');
    expect(refused.attempts[0].lastError).toBeNull();
    expect(await committedCents(stack, charge.id)).toBe(0);
    // The whole amount is refundable again.
    expect((await refund(stack, charge.id, 4990)).status).toBe('succeeded');
    expect(await committedCents(stack, charge.id)).toBe(4990);
  });

  it('a provider refunded total that counted an open refund of ours reaches a person when that refund then fails', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    // The provider is slow to answer: every lookup fails for a while, so the refund stays unknown.
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }, { fault: '500', on: 'query', times: 3 }] });
    const created = await refund(stack, charge.id, 800);
    expect(created.attempts[0].status).toBe('unknown');
    // Meanwhile the provider reports 800 refunded on the charge: explained by our open refund, nothing to decide yet.
    const event = { id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'charge.refunded', created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'ch_x', object: 'charge', payment_intent: charge.attempts[0].providerChargeId, amount: 4990, amount_refunded: 800, currency: 'usd' } } };
    const raw = JSON.stringify(event);
    const delivered = await stack.http.post('/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signStripePayload(raw, 'whsec_dev_simulator', Math.floor(Date.now() / 1000))).send(raw);
    expect(delivered.body).toEqual({ duplicate: false, disposition: 'applied' });
    expect((await getCharge(stack, charge.id)).refundedCents).toBe(800);

    // Our refund is then failed as not found: the 800 the provider reported is no longer explained by ours.
    const inReview = await waitFor(() => getRefund(stack, created.id), (r) => r.status === 'in_review' && r.attempts[0].status !== 'unknown', 10_000, 'the unexplained refund to reach a person');
    expect(inReview.attempts[0]).toMatchObject({ status: 'failed', resolvedBy: 'resolver' });
    expect(stack.sim.stats().faultsInjected.query_500).toBe(3);
    const [item] = await stack.db.getRepository(ReviewItemEntity).findBy({ attemptId: created.attempts[0].id });
    expect(item).toMatchObject({ state: 'open', reason: 'provider_refund_unexplained' });
    expect(await committedCents(stack, charge.id)).toBe(0);
    // Nothing new goes out for this refund while a person decides.
    const retried = await stack.http.post(`/refunds/${created.id}/submit`).set(stack.auth('merchant'));
    expect(retried.body.attempts).toHaveLength(1);
  });

  it('an approved proposal for a provider-only charge refunds it through the attempt model: a timeout is resolved by query, never sent twice', async () => {
    // A provider charge with no charge of ours, and the proposal reconciliation would have made for it.
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const [planted] = stack.sim.plantCharges([{ amount: 2500, customer: customerId }]);
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 2500 });

    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const approved = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({ note: 'not ours' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: 'executed', refundId: expect.any(String) });
    const sent = await getRefund(stack, approved.body.refundId, 'admin');
    expect(sent).toMatchObject({ chargeId: null, providerChargeId: planted.paymentIntentId, proposalId, status: 'processing' });
    expect(sent.attempts[0].status).toBe('unknown');
    expect(stack.sim.stats().faultsInjected.hang_after_create).toBeGreaterThanOrEqual(1);

    const done = await waitFor(() => getRefund(stack, sent.id, 'admin'), (r) => r.status === 'succeeded', 10_000, 'the proposal refund to be resolved');
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0].resolvedBy).toBe('resolver');
    expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId }).map((r) => [r.amount, r.status])).toEqual([[2500, 'succeeded']]);
    expect(stack.sim.requests(done.attempts[0].idempotencyKey)).toHaveLength(1);
    expect(await transitionsOf(stack, done.attempts[0].id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:resolver']);
    // Approving again executes nothing more.
    expect((await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({})).status).toBe(409);
    expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId })).toHaveLength(1);
  });

  it('a proposal whose provider charge has since become our success is refused, and nothing is refunded', async () => {
    // The night saw the intent with no success of ours; since then our attempt settled with it.
    const charge = await succeededCharge(stack);
    const intentId = charge.attempts[0].providerChargeId!;
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: intentId, amountCents: charge.amountCents });
    const refused = await stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'refund_proposal_stale', details: { attemptId: charge.attempts[0].id, attemptStatus: 'succeeded' } });
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toEqual([]);
    expect(await stack.db.query(`SELECT state, refund_id FROM refund_proposals WHERE id = $1`, [proposalId])).toEqual([{ state: 'proposed', refund_id: null }]);

    // Two proposals for one provider charge (two runs, two kinds): the second refund is refused by the database.
    const [planted] = stack.sim.plantCharges([{ amount: 900 }]);
    const first = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 900 });
    const second = await insertRefundProposal(stack, { providerChargeId: planted.paymentIntentId, amountCents: 900, kind: 'duplicate_charge' });
    expect((await stack.http.post(`/reconciliation/refund-proposals/${first.proposalId}/approve`).set(stack.auth('admin')).send({})).status).toBe(200);
    const again = await stack.http.post(`/reconciliation/refund-proposals/${second.proposalId}/approve`).set(stack.auth('admin')).send({});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('provider_charge_already_refunded');
    expect(stack.sim.refunds({ paymentIntentId: planted.paymentIntentId })).toHaveLength(1);
  });
});
