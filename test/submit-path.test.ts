import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChargeAttemptEntity } from '@app/database';
import type { CreateFault } from '@app/simulator';
import { createCharge, submit, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Every row of DESIGN.md section 3, end to end: the simulator injects the fault over real HTTP, the
 * attempt lands where the table says, and the provider never holds more than one intent per key.
 * No worker runs here, so the state right after the submit is the state the submit recorded.
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

  it('2xx: the attempt succeeds with the provider id stored', async () => {
    const { view, attempt, stats } = await submitWithFault(null);
    expect(view.status).toBe('succeeded');
    expect(attempt).toMatchObject({ status: 'succeeded', httpAttempts: 1, resolvedBy: 'submit' });
    expect(attempt.providerChargeId).toMatch(/^pi_/);
    expect(stats.createsByIdempotencyKey[attempt.idempotencyKey]).toBe(1);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→succeeded:submit']);
  });

  it('402 card declined: the attempt fails, keeping the decline code and the intent id', async () => {
    const { view, attempt, stats } = await submitWithFault('decline');
    expect(view.status).toBe('failed');
    expect(attempt.status).toBe('failed');
    expect(attempt.lastError).toMatchObject({ httpStatus: 402, declineCode: expect.any(String), reason: 'declined' });
    expect(attempt.providerChargeId).toMatch(/^pi_/);
    expect(stats.faultsInjected.decline).toBe(1);
  });

  it('400 validation error (amount below the provider\'s minimum): the attempt fails, nothing was created', async () => {
    const charge = await createCharge(stack, { amountCents: 10 });
    const view = await submit(stack, charge.id);
    expect(view.status).toBe('failed');
    expect(view.attempts[0]).toMatchObject({ status: 'failed', lastError: { httpStatus: 400, reason: 'validation_error', code: 'amount_too_small' } });
    expect(stack.sim.stats().createsByIdempotencyKey[view.attempts[0].idempotencyKey]).toBeUndefined();
    expect(stack.sim.stats().intentsCreated).toBe(0);
  });

  it.each<[CreateFault, number]>([
    ['hang_after_create', 1],
    ['500_after_create', 1],
    ['500_before_create', 0],
    ['reset_before_read', 0],
    ['409', 0],
  ])('%s: the outcome is unknown, never failed (intents created: %i)', async (fault, intents) => {
    const { view, attempt, stats } = await submitWithFault(fault);
    expect(attempt.status).toBe('unknown');
    expect(view.status).toBe('processing');
    expect(stats.faultsInjected[fault]).toBe(1);
    expect(stats.createsByIdempotencyKey[attempt.idempotencyKey] ?? 0).toBe(intents);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:submit']);
  });

  it('429: the attempt stays pending with a backoff, and a later submit does not jump the queue', async () => {
    const { view, attempt, stats } = await submitWithFault('429');
    expect(attempt).toMatchObject({ status: 'pending', httpAttempts: 1 });
    expect(view.status).toBe('processing');
    expect(stats.createsByIdempotencyKey[attempt.idempotencyKey]).toBeUndefined();
    const row = await stack.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: attempt.id });
    expect(row.nextSendAt).not.toBeNull();
    expect(row.leaseExpiresAt).toBeNull();
  });

  it('connect refused: nothing was sent, so the attempt stays pending for a retry with the same key', async () => {
    const charge = await createCharge(stack);
    await stack.sim.refuseConnections();
    let view;
    try {
      view = await submit(stack, charge.id);
    } finally {
      await stack.sim.acceptConnections();
    }
    expect(view.attempts[0]).toMatchObject({ status: 'pending', httpAttempts: 1, lastError: { reason: 'connect_failed' } });
    expect(stack.sim.stats().requests.creates).toBe(0);
    expect(stack.sim.stats().faultsInjected.refuse_connections).toBe(1);
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
    expect(await stack.db.getRepository(ChargeAttemptEntity).countBy({ chargeId: charge.id })).toBe(1);
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
    await stack.db.query(`UPDATE charge_attempts SET payload = replace(payload, 'amount=4990', 'amount=9990'), next_send_at = now() WHERE id = $1`, [attempt.id]);
    const before = stack.sim.stats().requests.creates;
    const res = await stack.http.post(`/charges/${view.id}/submit`).set(stack.auth('merchant'));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in_review');
    expect(stack.sim.stats().requests.creates).toBe(before);
    const row = await stack.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: attempt.id });
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
