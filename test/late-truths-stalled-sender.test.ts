import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity } from '@app/database';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import { createCharge, getCharge, submit, submitRefusedAsCaptured, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * The resolver and sweeper run only when a test calls them, so each step of a race happens exactly when the
 * test says. The provider takes 1.5 s to execute a create (well inside our 3 s read timeout).
 */
describe('a sender stalled past its lease, and the grace measured by the database clock', () => {
  let stack: TestStack;
  let sweeper: OpenAttemptSweeper;
  let resolver: UnknownAttemptResolver;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true, env: { PROVIDER_READ_TIMEOUT_MS: '3000', SUBMIT_LEASE_MS: '5000', CONSISTENT_LOOKUP_GRACE_MS: '60000', RESOLUTION_MAX_TRIES: '30', RESOLUTION_BACKOFF_MS: '600000' } });
    sweeper = stack.app.get(OpenAttemptSweeper);
    resolver = stack.app.get(UnknownAttemptResolver);
  });
  afterAll(async () => stack.close());

  it('a success that arrives after the sweeper and the resolver failed the attempt goes to a person with the evidence, and a resubmit sends nothing', async () => {
    stack.sim.configure({ createLatencyMs: 1500 });
    const charge = await createCharge(stack);
    const inFlight = stack.http.post(`/charges/${charge.id}/submit`).set(stack.auth('merchant')).then((r) => r);
    await waitFor(async () => stack.sim.stats().requests.creates, (n) => n === 1, 5000, 'the create to reach the provider');
    const [attempt] = await stack.db.getRepository(AttemptEntity).findBy({ chargeId: charge.id });

    // The sender stalls past its lease (a GC pause, a frozen VM): its lease is made to have run out a minute ago.
    await stack.db.query(`UPDATE attempts SET lease_expires_at = now() - interval '61 seconds' WHERE id = $1`, [attempt.id]);
    expect((await sweeper.sweep()).leasesExpired).toBeGreaterThanOrEqual(1);
    // The provider has not executed the create yet, and the grace counts from the lease's end: not found, failed.
    expect(await resolver.resolve(attempt.id)).toEqual({ action: 'fail_not_found' });
    expect(stack.sim.intents({ attemptId: attempt.id })).toHaveLength(0);

    const late = await inFlight;
    expect(late.status).toBe(200);
    expect(stack.sim.intents({ attemptId: attempt.id })).toHaveLength(1);
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts.map((a) => a.status)).toEqual(['failed']);
    expect(view.capturedBy).toMatchObject({ attemptId: attempt.id, late: true });
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→failed:resolver']);
    const [item] = await stack.db.query(`SELECT reason, evidence FROM review_items WHERE attempt_id = $1`, [attempt.id]);
    expect(item.reason).toBe('provider_success_after_failure');
    expect(item.evidence.findings).toMatchObject({ lateResponse: true, httpStatus: 200, fact: { outcome: 'succeeded' } });

    const creates = stack.sim.stats().requests.creates;
    await submitRefusedAsCaptured(stack, charge.id, attempt.id);
    expect(stack.sim.stats().requests.creates).toBe(creates);
    stack.sim.configure({ createLatencyMs: 0 });
  });

  it('counts the grace from the end of the last send by the database clock, not from the attempt creation', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const [attempt] = (await submit(stack, charge.id)).attempts;
    expect(attempt.status).toBe('unknown');
    // Created and first sent an hour ago, but its last send ended just now: inside the 60 s grace.
    await stack.db.query(`UPDATE attempts SET created_at = now() - interval '1 hour', last_sent_at = now() - interval '1 hour' WHERE id = $1`, [attempt.id]);
    expect(await resolver.resolve(attempt.id)).toEqual({ action: 'wait', reason: 'not_found_inside_window' });
    await stack.db.query(`UPDATE attempts SET last_send_ended_at = now() - interval '61 seconds' WHERE id = $1`, [attempt.id]);
    expect(await resolver.resolve(attempt.id)).toEqual({ action: 'fail_not_found' });
  });
});

/**
 * Stripe sends its webhook at about the moment it answers the create, so the sender recording its response
 * and the webhook applying the same fact race on every charge. Both lock the charge and then the attempt before
 * writing anything that references the attempt; with any other order PostgreSQL would abort one of them as a
 * deadlock (a 500 and lost evidence). Many charges at once, every event delivered twice, none may fail.
 */
describe('the sender and the webhook for one charge racing', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, duplicates: 2, reorder: true, dropRate: 0 } });
  });
  afterAll(async () => stack.close());

  it('never deadlocks: every submit and every delivery answers 2xx, and each charge succeeds once', async () => {
    const deadlocks = async () => Number((await stack.db.query(`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`))[0].deadlocks);
    const before = await deadlocks();
    const charges = await Promise.all(Array.from({ length: 40 }, () => createCharge(stack)));
    const results = await Promise.all(charges.map((c) => stack.http.post(`/charges/${c.id}/submit`).set(stack.auth('merchant'))));
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    await stack.sim.webhooksIdle();
    const deliveries = stack.sim.webhookDeliveries();
    expect(deliveries.length).toBeGreaterThanOrEqual(40 * 3);
    expect(deliveries.filter((d) => d.httpStatus !== 200)).toEqual([]);
    const views = await Promise.all(charges.map((c) => getCharge(stack, c.id)));
    expect(views.every((v) => v.status === 'succeeded' && v.attempts.length === 1)).toBe(true);
    // Statistics are flushed lazily; a deadlock would also have shown up as a non-2xx above.
    expect(await deadlocks()).toBe(before);
  });
});
