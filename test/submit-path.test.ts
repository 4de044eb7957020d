import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttemptEntity } from '@app/database';
import type { CreateFault } from '@app/simulator';
import { createCharge, submit } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * The submit path against Stripe's simulator, over real HTTP: what is Stripe's own (a 402 keeps the declined
 * intent), the queue, concurrency, a new key only after a definitive failure, a tampered payload. Every row of
 * DESIGN.md section 3 for every provider is test/provider-scenarios.test.ts. No worker runs here, so the state
 * right after the submit is the state the submit recorded.
 */
describe('submitting a charge: one provider call classified by what the response proves', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());
  beforeEach(async () => stack.sim.reset());

  async function submitWithFault(fault: CreateFault | null) {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    if (fault) stack.sim.setFaults({ rules: [{ fault, match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const view = await submit(stack, charge.id);
    expect(view.attempts).toHaveLength(1);
    const attempt = view.attempts[0];
    const stats = stack.sim.stats();
    expect(stats.createsByIdempotencyKey[attempt.idempotencyKey] ?? 0).toBeLessThanOrEqual(1);
    if (fault) expect(Object.values(stats.faultsInjected).reduce((a, b) => a + b, 0)).toBe(1);
    return { view, attempt, stats };
  }

  it('402 card declined: the attempt fails, keeping the decline code and the intent id', async () => {
    const { view, attempt, stats } = await submitWithFault('decline');
    expect(view.status).toBe('failed');
    expect(attempt.status).toBe('failed');
    expect(attempt.lastError).toMatchObject({ httpStatus: 402, declineCode: expect.any(String), reason: 'declined' });
    expect(attempt.providerChargeId).toMatch(/^pi_/);
    expect(stats.faultsInjected.decline).toBe(1);
  });

  it('429: the attempt stays pending with a backoff, and a later submit does not jump the queue', async () => {
    const { view, attempt, stats } = await submitWithFault('429');
    expect(attempt).toMatchObject({ status: 'pending', httpAttempts: 1 });
    expect(view.status).toBe('processing');
    expect(stats.createsByIdempotencyKey[attempt.idempotencyKey]).toBeUndefined();
    const row = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attempt.id });
    expect(row.nextSendAt).not.toBeNull();
    expect(row.leaseExpiresAt).toBeNull();
  });

  it('an unknown attempt is never sent again by a submit', async () => {
    const { view } = await submitWithFault('hang_after_create');
    const again = await submit(stack, view.id);
    expect(again.attempts).toHaveLength(1);
    expect(again.attempts[0]).toMatchObject({ status: 'unknown', httpAttempts: 1 });
    expect(stack.sim.stats().requests.creates).toBe(1);
  });

  it('a succeeded charge is returned unchanged by another submit', async () => {
    const { view } = await submitWithFault(null);
    const again = await submit(stack, view.id);
    expect(again).toEqual(view);
    expect(stack.sim.stats().requests.creates).toBe(1);
  });

  it('50 concurrent submits of one charge: one attempt, one provider intent, consistent answers', async () => {
    const charge = await createCharge(stack);
    const views = await Promise.all(Array.from({ length: 50 }, () => submit(stack, charge.id)));
    const attemptIds = new Set(views.flatMap((v) => v.attempts.map((a) => a.id)));
    expect(attemptIds.size).toBe(1);
    for (const view of views) expect(['processing', 'succeeded']).toContain(view.status);
    expect(views.some((v) => v.status === 'succeeded')).toBe(true);
    const [attemptId] = [...attemptIds];
    expect(stack.sim.intents({ attemptId })).toHaveLength(1);
    expect(stack.sim.stats().requests.creates).toBe(1);
    expect(await stack.db.getRepository(AttemptEntity).countBy({ chargeId: charge.id })).toBe(1);
  });

  it('a declined first attempt, then submit again: a new attempt with a new key, and the charge succeeds once', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId }, times: 1 }] });
    const charge = await createCharge(stack, { customerId });
    const first = await submit(stack, charge.id);
    expect(first.status).toBe('failed');
    const second = await submit(stack, charge.id);
    expect(second.status).toBe('succeeded');
    expect(second.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    expect(second.attempts[1].idempotencyKey).not.toBe(second.attempts[0].idempotencyKey);
    const intents = stack.sim.intents({ customerId });
    expect(intents.filter((i) => i.status === 'succeeded')).toHaveLength(1);
    expect(stack.sim.stats().createsByIdempotencyKey[second.attempts[1].idempotencyKey]).toBe(1);
  });

  it('a stored payload that no longer matches its hash is never sent: the attempt goes to a person with the evidence, not back to the queue', async () => {
    const { view, attempt } = await submitWithFault('429');
    await stack.db.query(`UPDATE attempts SET payload = replace(payload, 'amount=4990', 'amount=9990'), next_send_at = now() WHERE id = $1`, [attempt.id]);
    const before = stack.sim.stats().requests.creates;
    const res = await stack.http.post(`/charges/${view.id}/submit`).set(stack.auth('merchant'));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in_review');
    expect(stack.sim.stats().requests.creates).toBe(before);
    const row = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attempt.id });
    // It was sent once before (the 429), so it is unknown rather than failed: only a person may decide.
    expect(row).toMatchObject({ status: 'unknown', httpAttempts: 1 });
    const [item] = await stack.db.query(`SELECT reason, state, evidence FROM review_items WHERE attempt_id = $1`, [attempt.id]);
    expect(item).toMatchObject({ reason: 'payload_mismatch', state: 'open' });
    expect(item.evidence.findings).toMatchObject({ reason: 'payload_mismatch' });
    expect(item.evidence.findings.storedHash).not.toBe(item.evidence.findings.actualHash);
    // Submitting again changes nothing while a person decides.
    await stack.http.post(`/charges/${view.id}/submit`).set(stack.auth('merchant')).expect(200);
    expect(stack.sim.stats().requests.creates).toBe(before);
  });

  it('answers 404 for a charge that does not exist and 400 for an id that is not a uuid', async () => {
    expect((await stack.http.post(`/charges/${randomUUID()}/submit`).set(stack.auth('merchant'))).status).toBe(404);
    expect((await stack.http.get('/charges/not-a-uuid').set(stack.auth('merchant'))).status).toBe(400);
  });
});
