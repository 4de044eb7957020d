import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttemptEntity, ReviewItemEntity, WebhookEventEntity } from '@app/database';
import { signStripePayload } from '@app/gateways';
import { UnknownAttemptResolver } from '@app/resolution';
import type { ChargeView } from '@app/charges';
import { createCharge, getCharge, submit, submitRefusedAsCaptured, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const SECRET = 'whsec_dev_simulator';

/** The first resolution try is ten minutes away: the resolver runs only when a test calls it, so "before" and "after" are exact. */
describe('Stripe webhooks', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { RESOLUTION_BACKOFF_MS: '600000' } });
  });
  afterAll(async () => stack.close());
  beforeEach(async () => {
    await stack.sim.reset();
    // Automatic events are dropped; each test sends exactly the events it means to.
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, dropRate: 1, duplicates: 0, reorder: false } });
  });

  async function unknownAttempt(): Promise<{ charge: ChargeView; attemptId: string; intentId: string }> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const view = await submit(stack, charge.id);
    const attemptId = view.attempts[0].id;
    expect(view.attempts[0].status).toBe('unknown');
    return { charge, attemptId, intentId: stack.sim.intents({ attemptId })[0].id };
  }

  function stripeEvent(type: string, intentId: string, attemptId: string, extra: Record<string, unknown> = {}) {
    return {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: intentId, object: 'payment_intent', amount: 4990, currency: 'usd', metadata: { attempt_id: attemptId }, ...extra } },
    };
  }

  function deliver(event: unknown, options: { secret?: string; timestamp?: number; header?: string | null; alter?: (raw: string) => string } = {}) {
    const raw = JSON.stringify(event);
    const header = options.header === undefined ? signStripePayload(raw, options.secret ?? SECRET, options.timestamp ?? Math.floor(Date.now() / 1000)) : options.header;
    const req = stack.http.post('/webhooks/stripe').set('Content-Type', 'application/json');
    if (header !== null) req.set('Stripe-Signature', header);
    return req.send(options.alter ? options.alter(raw) : raw);
  }

  const storedEvents = (attemptId: string) => stack.db.getRepository(WebhookEventEntity).findBy({ attemptId });

  it('a webhook that arrives before the resolver settles the attempt; the resolver then exits without a transition', async () => {
    const { charge, attemptId, intentId } = await unknownAttempt();
    const delivery = await stack.sim.sendWebhook({ eventType: 'payment_intent.succeeded', intentId });
    expect(delivery).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:webhook']);

    expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toBeNull();
    expect(await transitionsOf(stack, attemptId)).toHaveLength(3);
    expect(stack.sim.stats().requests.lists + stack.sim.stats().requests.retrieves).toBe(0);
  });

  it('a webhook that arrives after the resolver is stored and makes no second transition', async () => {
    const { attemptId, intentId } = await unknownAttempt();
    expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toMatchObject({ action: 'apply', status: 'succeeded' });
    const delivery = await stack.sim.sendWebhook({ eventType: 'payment_intent.succeeded', intentId });
    expect(delivery.httpStatus).toBe(200);
    const events = await storedEvents(attemptId);
    expect(events).toHaveLength(1);
    expect(events[0].disposition).toBe('no_change');
    expect((await transitionsOf(stack, attemptId)).filter((t) => t.startsWith('unknown→'))).toEqual(['unknown→succeeded:resolver']);
  });

  it('duplicated and reordered events (succeeded before processing) end in the right state, each stored once', async () => {
    const { charge, attemptId, intentId } = await unknownAttempt();
    const succeeded = stripeEvent('payment_intent.succeeded', intentId, attemptId);
    const processing = stripeEvent('payment_intent.processing', intentId, attemptId);
    for (const event of [succeeded, processing, succeeded, processing, succeeded]) expect((await deliver(event)).status).toBe(200);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
    const events = await storedEvents(attemptId);
    expect(events.map((e) => e.eventId).sort()).toEqual([succeeded.id, processing.id].sort());
    expect((await transitionsOf(stack, attemptId)).filter((t) => t.includes(':webhook'))).toEqual(['unknown→succeeded:webhook']);
  });

  it('a late payment_failed after succeeded is stored and goes to a person, never applied', async () => {
    const { charge, attemptId, intentId } = await unknownAttempt();
    await deliver(stripeEvent('payment_intent.succeeded', intentId, attemptId));
    const late = stripeEvent('payment_intent.payment_failed', intentId, attemptId);
    expect((await deliver(late)).status).toBe(200);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
    const [row] = await stack.db.getRepository(WebhookEventEntity).findBy({ eventId: late.id });
    expect(row.disposition).toBe('flagged');
    expect(row.detail).toMatchObject({ action: 'review', reason: 'provider_failure_after_success' });
    const [item] = await stack.db.query(`SELECT reason, evidence FROM review_items WHERE attempt_id = $1`, [attemptId]);
    expect(item.reason).toBe('provider_failure_after_success');
    expect(item.evidence.findings).toMatchObject({ webhookEventId: late.id, recordedStatus: 'succeeded' });
  });

  it('the simulator\'s own duplicated, reordered deliveries are each stored once and settle nothing twice', async () => {
    stack.sim.configure({ webhook: { dropRate: 0, duplicates: 2, reorder: true } });
    const charge = await createCharge(stack);
    const view = await submit(stack, charge.id);
    await stack.sim.webhooksIdle();
    const deliveries = stack.sim.webhookDeliveries();
    expect(deliveries.filter((d) => d.copy > 0).length).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.httpStatus === 200)).toBe(true);
    const events = await storedEvents(view.attempts[0].id);
    expect(events).toHaveLength(new Set(deliveries.map((d) => d.eventId)).size);
    expect(await transitionsOf(stack, view.attempts[0].id)).toEqual(['new→pending:submit', 'pending→succeeded:submit']);
  });

  describe('rejects, with 400, no row written and the attempt unchanged', () => {
    it.each([
      ['a forged signature', { secret: 'whsec_not_ours' }],
      ['a stale timestamp', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
      ['a missing header', { header: null }],
      ['a body altered after signing', { alter: (raw: string) => raw.replace('"amount":4990', '"amount":1') }],
    ])('%s', async (_name, options) => {
      const { charge, attemptId, intentId } = await unknownAttempt();
      const event = stripeEvent('payment_intent.succeeded', intentId, attemptId);
      const res = await deliver(event, options);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'webhook_rejected' });
      expect(await stack.db.getRepository(WebhookEventEntity).countBy({ eventId: event.id })).toBe(0);
      expect((await getCharge(stack, charge.id)).attempts[0].status).toBe('unknown');
    });

    it('a forged event sent by the simulator', async () => {
      const { charge, attemptId } = await unknownAttempt();
      const delivery = await stack.sim.forgeWebhook({ type: 'payment_intent.succeeded', attemptId });
      expect(delivery).toMatchObject({ forged: true, httpStatus: 400 });
      expect(stack.sim.stats().webhooks.forged).toBe(1);
      expect(await storedEvents(attemptId)).toHaveLength(0);
      expect((await getCharge(stack, charge.id)).attempts[0].status).toBe('unknown');
    });
  });

  it('200 concurrent deliveries of one event: one stored row, at most one transition', async () => {
    const { charge, attemptId, intentId } = await unknownAttempt();
    const event = stripeEvent('payment_intent.succeeded', intentId, attemptId);
    const responses = await Promise.all(Array.from({ length: 200 }, () => deliver(event)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await stack.db.getRepository(WebhookEventEntity).countBy({ eventId: event.id })).toBe(1);
    expect((await transitionsOf(stack, attemptId)).filter((t) => t.startsWith('unknown→'))).toHaveLength(1);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });

  it('a provider success for an attempt we settled as failed goes to a person, and blocks a new attempt meanwhile', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    expect(await stack.app.get(UnknownAttemptResolver).resolve(attempts[0].id)).toEqual({ action: 'fail_not_found' });
    expect((await getCharge(stack, charge.id)).status).toBe('failed');

    // The provider says otherwise: money was taken after all.
    const late = stripeEvent('payment_intent.succeeded', `pi_${randomUUID().slice(0, 8)}`, attempts[0].id);
    expect((await deliver(late)).body).toEqual({ duplicate: false, disposition: 'flagged' });
    const items = await stack.db.getRepository(ReviewItemEntity).findBy({ attemptId: attempts[0].id });
    expect(items.map((i) => [i.state, i.reason])).toEqual([['open', 'provider_success_after_failure']]);

    await submitRefusedAsCaptured(stack, charge.id, attempts[0].id);
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts).toHaveLength(1);
    expect(stack.sim.stats().requests.creates).toBe(1);
  });

  it('a success naming another provider charge for an attempt is flagged as a duplicate for review', async () => {
    const paid = await submit(stack, (await createCharge(stack)).id);
    const { attemptId } = await unknownAttempt();
    // A second intent for a settled attempt, and an event that would give an unknown attempt an intent another attempt owns.
    const second = stripeEvent('payment_intent.succeeded', `pi_${randomUUID().slice(0, 8)}`, paid.attempts[0].id);
    const stolen = stripeEvent('payment_intent.succeeded', paid.attempts[0].providerChargeId!, attemptId);
    expect((await deliver(second)).body).toEqual({ duplicate: false, disposition: 'flagged' });
    expect((await deliver(stolen)).body).toEqual({ duplicate: false, disposition: 'flagged' });
    const reasons = await stack.db.getRepository(ReviewItemEntity).findBy([{ attemptId: paid.attempts[0].id }, { attemptId }]);
    expect(reasons.map((r) => r.reason).sort()).toEqual(['duplicate_provider_charges', 'duplicate_provider_charges']);
    expect((await getCharge(stack, paid.id)).status).toBe('succeeded');
    const unknown = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
    expect(unknown).toMatchObject({ status: 'unknown', providerRef: null });
  });

  it('accepts an event larger than the default 100 kB body limit', async () => {
    const { charge, attemptId, intentId } = await unknownAttempt();
    const event = stripeEvent('payment_intent.succeeded', intentId, attemptId, { description: 'x'.repeat(300_000) });
    expect((await deliver(event)).status).toBe(200);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });

  it('keeps an event for a reference we do not know as unmatched, for reconciliation', async () => {
    const event = stripeEvent('payment_intent.succeeded', `pi_${randomUUID().slice(0, 8)}`, randomUUID());
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ duplicate: false, disposition: 'unmatched' });
    const [row] = await stack.db.getRepository(WebhookEventEntity).findBy({ eventId: event.id });
    expect(row).toMatchObject({ disposition: 'unmatched', attemptId: null });
  });

  it('a webhook reaching an attempt still pending mid-call settles it, and the late response changes nothing', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    stack.sim.configure({ webhook: { dropRate: 0 } });
    const charge = await createCharge(stack, { customerId });
    const view = await submit(stack, charge.id);
    await stack.sim.webhooksIdle();
    const settled = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 5000, 'the webhook');
    expect(settled.attempts).toHaveLength(1);
    const trail = await transitionsOf(stack, view.attempts[0].id);
    expect(trail.filter((t) => t.endsWith('→succeeded:webhook'))).toHaveLength(1);
    expect(trail.filter((t) => t.includes('succeeded'))).toHaveLength(1);
  });
});
