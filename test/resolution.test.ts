import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptTransitionWriter } from '@app/attempts';
import { ChargeAttemptOpener } from '@app/charges';
import { AttemptEntity, ProviderCallEntity, ReviewItemEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { countFaultsFrom } from './support/fault-counter.js';

describe('resolving unknown attempts by asking the provider', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '400', RESOLUTION_MAX_TRIES: '30' } });
  });
  afterAll(async () => stack.close());

  it('create-then-timeout: the resolver finds the intent and marks the attempt succeeded, with no second create', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const submitted = await submit(stack, charge.id);
    expect(submitted.attempts[0].status).toBe('unknown');
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'resolution');
    const attempt = done.attempts[0];
    const [intent] = stack.sim.intents({ attemptId: attempt.id });
    expect(attempt.providerChargeId).toBe(intent.id);
    expect(attempt.resolvedBy).toBe('resolver');
    expect(stack.sim.stats().createsByIdempotencyKey[attempt.idempotencyKey]).toBe(1);
    expect(stack.sim.requests(attempt.idempotencyKey)).toHaveLength(1);
    expect(stack.sim.stats().requests.lists).toBeGreaterThanOrEqual(1);
    expect(stack.sim.stats().requests.searches).toBe(0);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:resolver']);
  });

  it('500 before create: not found inside the window (retries observed), failed after it; a new attempt then succeeds once', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const faults = countFaultsFrom(stack.sim);
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    // Search lags a minute behind; the resolver's strongly consistent list does not, so only the short
    // processing grace (400 ms here) separates "not found yet" from "never created".
    stack.sim.configure({ searchLagMs: 60_000 });
    const charge = await createCharge(stack, { customerId });
    await submit(stack, charge.id);
    const failed = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'failed', 10_000, 'the unknown attempt to fail');
    const attemptId = failed.attempts[0].id;
    const lookups = await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId, kind: 'lookup' });
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    expect(lookups.every((l) => l.outcome === 'not_found')).toBe(true);
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→failed:resolver']);
    expect(faults('500_before_create')).toBe(1);
    expect(stack.sim.stats().requests.searches).toBe(0);

    const retried = await submit(stack, charge.id);
    expect(retried.status).toBe('succeeded');
    expect(retried.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    expect(stack.sim.intents({ customerId }).filter((i) => i.status === 'succeeded')).toHaveLength(1);
  });

  it('a resolver racing a second resolver on one attempt produces one transition', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    const resolver = stack.app.get(UnknownAttemptResolver);
    await Promise.all([resolver.resolve(attempts[0].id), resolver.resolve(attempts[0].id), resolver.resolve(attempts[0].id)]);
    await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'resolution');
    const trail = await transitionsOf(stack, attempts[0].id);
    expect(trail.filter((t) => t.startsWith('unknown→'))).toHaveLength(1);
  });

  it('a process that dies between claim and response: the sweeper makes the attempt unknown, it is resolved, nothing is sent twice', async () => {
    const charge = await createCharge(stack);
    // Phase 1 and the claim ran, the request went out and created the intent, then the process died:
    // the lease is left behind and no result was ever recorded.
    const opened = await stack.app.get(ChargeAttemptOpener).openOrReuse(charge.id, 'crashing-worker');
    if (opened.kind !== 'open') throw new Error('expected an open attempt');
    const attempt = opened.attempt;
    expect(attempt.httpAttempts).toBe(1);
    expect(attempt.leaseExpiresAt).not.toBeNull();
    const sent = await stack.app.get(GatewayRegistry).get('stripe').createCharge(attempt.idempotencyKey, attempt.payload);
    expect(sent.kind).toBe('response');

    // While the lease is held a submit must not send again.
    expect((await submit(stack, charge.id)).attempts[0].status).toBe('pending');
    expect(stack.sim.requests(attempt.idempotencyKey)).toHaveLength(1);

    // The lease runs out: the process that held it is gone.
    await stack.db.query(`UPDATE attempts SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [attempt.id]);
    const report = await stack.app.get(OpenAttemptSweeper).sweep();
    expect(report.leasesExpired).toBeGreaterThanOrEqual(1);
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'resolution after the crash');
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→succeeded:resolver']);
    expect(stack.sim.requests(attempt.idempotencyKey)).toHaveLength(1);
    expect(done.attempts[0].providerChargeId).toBe(stack.sim.intents({ attemptId: attempt.id })[0].id);
  });

  it('a submit that records its result after a resolver already settled the attempt changes nothing', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'resolution');
    const writer = stack.app.get(AttemptTransitionWriter);
    expect(await writer.apply({ attemptId: attempts[0].id, from: 'unknown', to: 'failed', cause: 'submit', actor: 'late' })).toBe(false);
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });
});

describe('when resolution runs out of tries', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { RESOLUTION_MAX_TRIES: '3' } });
  });
  afterAll(async () => stack.close());

  it('a permanently unreachable provider leaves the attempt unknown with exactly one open review item holding the evidence', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'reset_before_read', match: { customerId } }, { fault: '500', on: 'query', times: 1000 }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    const attemptId = attempts[0].id;
    const view = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'in_review', 10_000, 'the review hand-off');
    expect(view.attempts[0].status).toBe('unknown');
    const items = await stack.db.getRepository(ReviewItemEntity).findBy({ attemptId });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ state: 'open', reason: 'tries_exhausted' });
    const evidence = items[0].evidence as { payload: string; providerCalls: Array<{ kind: string; at: string }>; transitions: unknown[] };
    expect(evidence.payload).toContain(`metadata[attempt_id]=${attemptId}`);
    expect(evidence.providerCalls.filter((c) => c.kind === 'lookup')).toHaveLength(3);
    expect(evidence.providerCalls.every((c) => typeof c.at === 'string')).toBe(true);
    expect(stack.sim.stats().faultsInjected.query_500).toBe(3);

    // More resolvers and sweeps do not open a second item, and nothing is ever re-sent.
    await stack.app.get(UnknownAttemptResolver).resolve(attemptId);
    await stack.app.get(OpenAttemptSweeper).sweep();
    expect(await stack.db.getRepository(ReviewItemEntity).countBy({ attemptId })).toBe(1);
    expect(stack.sim.requests(attempts[0].idempotencyKey)).toHaveLength(1);
    expect((await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId })).status).toBe('unknown');
  });
});
