import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChargeView } from '@app/charges';
import { AttemptEntity, ProviderCallEntity, WebhookEventEntity } from '@app/database';
import { signStripePayload } from '@app/gateways';
import { createCharge, getCharge, submit, submitRefusedAsCaptured } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * DESIGN.md sections 6 and 7, late truths: a provider fact that contradicts our record is never dropped and
 * never rewrites a terminal status; it reaches a person in the transaction that stores it, and the charge
 * refuses new attempts until that person has decided. Real api + worker, PostgreSQL, Redis and simulator.
 */
/** A review item's evidence as stored (jsonb), read loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Evidence = Record<string, any>;

describe('late truths', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Not found is trusted 300 ms after a send ended; the late creates below land 4 s after arrival.
    stack = await startTestStack({ worker: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '300', RESOLUTION_MAX_TRIES: '10' } });
  });
  afterAll(async () => stack.close());
  beforeEach(async () => {
    await stack.sim.reset();
    stack.sim.configure({ hangMs: 2500, webhook: { url: `${stack.baseUrl}/webhooks/stripe`, dropRate: 1 } });
  });

  const reviewItemsOf = (attemptId: string) =>
    stack.db.query<Array<{ reason: string; state: string; evidence: Evidence }>>(`SELECT reason, state, evidence FROM review_items WHERE attempt_id = $1`, [attemptId]);

  function deliver(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
    const event = { id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type, created, data: { object } };
    return redeliver(event);
  }
  function redeliver(event: { id: string }) {
    const raw = JSON.stringify(event);
    const request = stack.http.post('/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signStripePayload(raw, 'whsec_dev_simulator', Math.floor(Date.now() / 1000)));
    return request.send(raw).then((res) => ({ res, event }));
  }
  const intent = (id: string, attemptId: string, extra: Record<string, unknown> = {}) => ({ id, object: 'payment_intent', amount: 4990, currency: 'usd', metadata: { attempt_id: attemptId }, ...extra });

  /** A charge whose only attempt the resolver failed as not found (500 before create: nothing exists). */
  async function failedAsNotFound(): Promise<{ charge: ChargeView; attemptId: string; customerId: string }> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    await submit(stack, charge.id);
    const failed = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'failed', 10_000, 'the not-found failure');
    expect(failed.attempts[0].resolvedBy).toBe('resolver');
    return { charge, attemptId: failed.attempts[0].id, customerId };
  }

  it('a create the provider executes after our grace, with every webhook lost, is found before the resubmit charges again: one provider success per charge, in review', async () => {
    const customers = Array.from({ length: 4 }, () => `cus_${randomUUID().slice(0, 12)}`);
    stack.sim.setFaults({ rules: customers.map((customerId) => ({ fault: 'create_late' as const, match: { customerId } })) });
    stack.sim.configure({ hangMs: 4000 });
    const charges = await Promise.all(customers.map((customerId) => createCharge(stack, { customerId })));
    const submitted = await Promise.all(charges.map((charge) => submit(stack, charge.id)));
    expect(submitted.map((v) => v.attempts[0].status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);

    // The resolver, after the grace and with a strongly consistent list, rightly finds nothing yet: failed.
    const readAll = () => Promise.all(charges.map((c) => getCharge(stack, c.id)));
    await waitFor(readAll, (vs) => vs.every((v) => v.status === 'failed'), 15_000, 'every attempt failed as not found');
    expect(customers.map((customerId) => stack.sim.intents({ customerId }).length)).toEqual([0, 0, 0, 0]);

    // Then the provider executes every held create, and loses every webhook.
    await waitFor(async () => customers.map((customerId) => stack.sim.intents({ customerId }).length), (n) => n.every((c) => c === 1), 10_000, 'the late creates');
    await stack.sim.webhooksIdle();
    expect(stack.sim.stats().faultsInjected.create_late).toBe(4);
    const deliveries = stack.sim.webhookDeliveries();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.outcome === 'dropped')).toBe(true);
    const createsBefore = stack.sim.stats().requests.creates;

    // Every customer tries again.
    for (const charge of charges) {
      // The re-check finds the capture: recorded as the attempt's late capture, the charge is paid, nothing opens.
      const attemptId = (await getCharge(stack, charge.id)).attempts[0].id;
      await submitRefusedAsCaptured(stack, charge.id, attemptId);
      const view = await getCharge(stack, charge.id);
      expect(view.status).toBe('succeeded');
      expect(view.capturedBy).toMatchObject({ attemptId, late: true });
      expect(view.attempts).toHaveLength(1);
    }
    expect(stack.sim.stats().requests.creates).toBe(createsBefore);
    for (const [i, charge] of charges.entries()) {
      const intents = stack.sim.intents({ customerId: customers[i] });
      expect(intents.filter((x) => x.status === 'succeeded')).toHaveLength(1);
      const attemptId = (await getCharge(stack, charge.id)).attempts[0].id;
      const [item] = await reviewItemsOf(attemptId);
      expect(item).toMatchObject({ reason: 'provider_success_after_failure', state: 'open' });
      expect(item.evidence.findings.fact).toMatchObject({ outcome: 'succeeded', providerChargeId: intents[0].id });
      const rechecks = await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId, kind: 'recheck' });
      expect(rechecks.map((r) => r.outcome)).toEqual(['found']);
      // Still refused while the person decides.
      await submitRefusedAsCaptured(stack, charge.id, attemptId);
    }
    expect(stack.sim.stats().requests.creates).toBe(createsBefore);
  });

  it('a clean miss on the re-check lets the new attempt open, and the query is kept as evidence on the old attempt', async () => {
    const { charge, attemptId, customerId } = await failedAsNotFound();
    const view = await submit(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    expect((await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId, kind: 'recheck' })).map((r) => r.outcome)).toEqual(['not_found']);
    expect(stack.sim.intents({ customerId }).filter((x) => x.status === 'succeeded')).toHaveLength(1);
  });

  it('a re-check the provider cannot answer sends nothing and says so (503); the next submit re-checks and goes on', async () => {
    const { charge, attemptId } = await failedAsNotFound();
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query' }] });
    const createsBefore = stack.sim.stats().requests.creates;
    const refused = await stack.http.post(`/charges/${charge.id}/submit`).set(stack.auth('merchant'));
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('previous_attempt_unverified');
    expect(stack.sim.stats().requests.creates).toBe(createsBefore);
    expect(stack.sim.stats().faultsInjected.query_500).toBe(1);
    expect((await submit(stack, charge.id)).status).toBe('succeeded');
    const rechecks = await stack.db.getRepository(ProviderCallEntity).find({ where: { attemptId, kind: 'recheck' }, order: { at: 'ASC' } });
    expect(rechecks.map((r) => r.outcome)).toEqual(['error', 'not_found']);
  });

  it('an event proving an intent exists for an attempt failed as not found goes to a person, and blocks a new attempt', async () => {
    const { charge, attemptId } = await failedAsNotFound();
    const { res } = await deliver('payment_intent.processing', intent('pi_late_processing_' + randomUUID().slice(0, 8), attemptId, { status: 'processing' }));
    expect(res.status).toBe(200);
    const [item] = await reviewItemsOf(attemptId);
    expect(item.reason).toBe('provider_charge_after_not_found');
    const createsBefore = stack.sim.stats().requests.creates;
    expect((await submit(stack, charge.id)).status).toBe('in_review');
    expect(stack.sim.stats().requests.creates).toBe(createsBefore);
  });

  it('the review item commits with the webhook event or not at all: a failure in between leaves nothing, and the redelivery opens it', async () => {
    const { charge, attemptId } = await failedAsNotFound();
    const fn = `fail_review_${attemptId.replace(/-/g, '')}`;
    // A fault in the middle of the webhook's transaction, only for this attempt: opening its review item fails.
    await stack.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.attempt_id = '${attemptId}' THEN RAISE EXCEPTION 'injected review failure'; END IF; RETURN NEW; END $$`);
    await stack.db.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON review_items FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    let event: { id: string };
    try {
      const first = await deliver('payment_intent.succeeded', intent(`pi_late_${randomUUID().slice(0, 8)}`, attemptId, { status: 'succeeded' }));
      event = first.event;
      expect(first.res.status).toBe(500);
      expect(await stack.db.getRepository(WebhookEventEntity).countBy({ eventId: event.id })).toBe(0);
      expect(await reviewItemsOf(attemptId)).toHaveLength(0);
    } finally {
      await stack.db.query(`DROP TRIGGER ${fn} ON review_items`);
      await stack.db.query(`DROP FUNCTION ${fn}()`);
    }
    const again = await redeliver(event);
    expect(again.res.status).toBe(200);
    const [row] = await stack.db.getRepository(WebhookEventEntity).findBy({ eventId: event.id });
    expect(row.disposition).toBe('flagged');
    const items = await reviewItemsOf(attemptId);
    expect(items.map((i) => i.reason)).toEqual(['provider_success_after_failure']);
    expect(items[0].evidence.findings.webhookEventId).toBe(event.id);
    // The customer paid: the charge reads succeeded while the person decides what to do with the capture.
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });

  it('a failure event for another provider charge neither fails the attempt nor replaces its provider id', async () => {
    const charge = await createCharge(stack, { paymentMethodId: 'pm_sim_processing' });
    const view = await submit(stack, charge.id);
    const attempt = view.attempts[0];
    expect(attempt).toMatchObject({ status: 'unknown' });
    expect(attempt.providerChargeId).toMatch(/^pi_/);
    const { res, event } = await deliver('payment_intent.payment_failed', intent('pi_someone_else', attempt.id, { status: 'requires_payment_method' }));
    expect(res.status).toBe(200);
    const row = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attempt.id });
    expect(row).toMatchObject({ status: 'unknown', providerRef: attempt.providerChargeId });
    const [stored] = await stack.db.getRepository(WebhookEventEntity).findBy({ eventId: event.id });
    expect(stored.detail).toMatchObject({ action: 'none', reason: 'other_charge_not_successful' });
  });

  it('a provider id a webhook taught us mid-call survives the send timing out', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    // The create executes at once (announcing the intent by webhook) but its response never comes back.
    stack.sim.configure({ webhook: { dropRate: 0 } });
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId, paymentMethodId: 'pm_sim_processing' });
    const view = await submit(stack, charge.id);
    const [intentAtProvider] = stack.sim.intents({ customerId });
    expect(view.attempts[0].status).toBe('unknown');
    expect(view.attempts[0].providerChargeId).toBe(intentAtProvider.id);
    const taught = await stack.db.getRepository(WebhookEventEntity).findBy({ attemptId: view.attempts[0].id });
    expect(taught.length).toBeGreaterThan(0);
  });

  it('refunds and disputes are kept on the charge (out of order, never backwards) and shown to a person; unknown ones stay unmatched', async () => {
    const charge = await createCharge(stack);
    const view = await submit(stack, charge.id);
    const pi = view.attempts[0].providerChargeId!;
    const refund = (amountRefunded: number) => deliver('charge.refunded', { id: `ch_${pi}`, object: 'charge', payment_intent: pi, amount_refunded: amountRefunded, amount: 4990, currency: 'usd' });
    expect((await refund(1000)).res.status).toBe(200);
    expect((await refund(400)).res.status).toBe(200);
    const dispute = (type: string, status: string) => deliver(type, { id: 'dp_1', object: 'dispute', payment_intent: pi, amount: 4990, currency: 'usd', status });
    await dispute('charge.dispute.closed', 'lost');
    await dispute('charge.dispute.created', 'needs_response');

    const after = await getCharge(stack, charge.id);
    expect(after).toMatchObject({ status: 'succeeded', refundedCents: 1000, disputed: true, disputeStatus: 'lost' });
    const [item] = await reviewItemsOf(view.attempts[0].id);
    expect(item.reason).toBe('provider_refund');
    expect(item.evidence.laterFindings.map((f: { reason: string }) => f.reason)).toEqual(['provider_refund', 'dispute_closed', 'dispute_opened']);

    const { event } = await deliver('charge.refunded', { id: 'ch_nobody', object: 'charge', payment_intent: 'pi_nobody_knows', amount_refunded: 100 });
    const [stored] = await stack.db.getRepository(WebhookEventEntity).findBy({ eventId: event.id });
    expect(stored.disposition).toBe('unmatched');
  });

  it('a dispute moves by the time of the event that says it: an appeal delivered after it was finally lost does not reopen it', async () => {
    const charge = await createCharge(stack);
    const pi = (await submit(stack, charge.id)).attempts[0].providerChargeId!;
    const dispute = (type: string, status: string, created: number) =>
      deliver(type, { id: 'dp_appeal', object: 'dispute', payment_intent: pi, amount: 4990, currency: 'usd', status }, created);
    const t = Math.floor(Date.now() / 1000) - 3600;
    await dispute('charge.dispute.closed', 'lost', t);
    await dispute('charge.dispute.updated', 'appeal_needs_response', t + 60);
    expect(await getCharge(stack, charge.id)).toMatchObject({ disputed: true, disputeStatus: 'appeal_needs_response' });
    // The appeal is lost at t+300; its under-review event of t+120 arrives last.
    await dispute('charge.dispute.closed', 'lost', t + 300);
    await dispute('charge.dispute.updated', 'appeal_under_review', t + 120);
    expect(await getCharge(stack, charge.id)).toMatchObject({ disputeStatus: 'lost' });
    const [row] = await stack.db.query(`SELECT dispute_status_at FROM charges WHERE id = $1`, [charge.id]);
    expect(new Date(row.dispute_status_at).getTime()).toBe((t + 300) * 1000);
  });
});
