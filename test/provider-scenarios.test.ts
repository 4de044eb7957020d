import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChargeAttemptOpener, type ChargeView } from '@app/charges';
import { AttemptEntity, ProviderCallEntity } from '@app/database';
import { GatewayRegistry } from '@app/gateways';
import { OpenAttemptSweeper } from '@app/resolution';
import type { CreateFault } from '@app/simulator';
import { createCharge, getCharge, submit, submitRefusedAsCaptured, transitionsOf } from './support/charges.js';
import { PROVIDER_PROFILES, type ProviderProfile } from './support/provider-profiles.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * The fault scenarios, written once and run against every adapter: Stripe (which deduplicates by
 * idempotency key) and Asaas (which has no key at all, so a resend is a second payment). Every scenario
 * ends by checking, at the simulator, that the charge has at most one payment.
 */
async function expectAtMostOnePaymentPerCharge(stack: TestStack, profile: ProviderProfile, view: ChargeView): Promise<void> {
  const payments = view.attempts.flatMap((a) => profile.chargesFor(stack.sim, a.id));
  expect(payments.length, `payments for charge ${view.id}`).toBeLessThanOrEqual(1);
  for (const attempt of view.attempts) expect(profile.createsFor(stack.sim, attempt)).toBeLessThanOrEqual(1);
}

describe.each(PROVIDER_PROFILES)('classification of one provider call, end to end ($provider)', (profile) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());
  beforeEach(async () => stack.sim.reset());

  async function submitWithFault(fault: CreateFault | null, overrides: Record<string, unknown> = {}) {
    const body = profile.chargeBody(overrides);
    if (fault) stack.sim.setFaults({ rules: [{ fault, match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    const view = await submit(stack, charge.id);
    expect(view.attempts).toHaveLength(1);
    if (fault) expect(Object.values(stack.sim.stats().faultsInjected).reduce((a, b) => a + b, 0)).toBe(1);
    await expectAtMostOnePaymentPerCharge(stack, profile, view);
    return { view, attempt: view.attempts[0] };
  }

  it('2xx: the attempt succeeds with the provider id stored', async () => {
    const { view, attempt } = await submitWithFault(null);
    expect(view.status).toBe('succeeded');
    expect(attempt).toMatchObject({ status: 'succeeded', httpAttempts: 1, resolvedBy: 'submit' });
    expect(attempt.providerChargeId).toMatch(profile.providerChargeId);
    expect(profile.chargesFor(stack.sim, attempt.id).map((c) => c.id)).toEqual([attempt.providerChargeId]);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→succeeded:submit']);
  });

  it('a declined card: the attempt fails', async () => {
    const { view, attempt } = await submitWithFault('decline');
    expect(view.status).toBe('failed');
    expect(attempt.lastError).toMatchObject({ reason: expect.stringMatching(/^(declined|validation_error)$/) });
    expect(profile.createsFor(stack.sim, attempt)).toBe(profile.declineCreates);
  });

  it('400 validation error (an amount below the provider\'s minimum): the attempt fails, nothing was created', async () => {
    const { view, attempt } = await submitWithFault(null, profile.belowProviderMinimum);
    expect(view.status).toBe('failed');
    expect(attempt.lastError).toMatchObject({ httpStatus: 400, reason: 'validation_error', code: profile.amountTooSmallCode });
    expect(profile.createsFor(stack.sim, attempt)).toBe(0);
  });

  it.each<[CreateFault, number]>([
    ['hang_after_create', 1],
    ['500_after_create', 1],
    ['500_before_create', 0],
    ['reset_before_read', 0],
    ['409', 0],
  ])('%s: the outcome is unknown, never failed (payments created: %i)', async (fault, created) => {
    const { view, attempt } = await submitWithFault(fault);
    expect(attempt.status).toBe('unknown');
    expect(view.status).toBe('processing');
    expect(stack.sim.stats().faultsInjected[fault]).toBe(1);
    expect(profile.createsFor(stack.sim, attempt)).toBe(created);
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:submit']);
    // And a second submit never sends it again.
    expect((await submit(stack, view.id)).attempts[0]).toMatchObject({ status: 'unknown', httpAttempts: 1 });
    expect(profile.requestsFor(stack.sim, attempt)).toBe(1);
  });

  it('429: nothing was processed, so the attempt stays pending for a resend after a backoff', async () => {
    const { view, attempt } = await submitWithFault('429');
    expect(attempt).toMatchObject({ status: 'pending', httpAttempts: 1 });
    expect(view.status).toBe('processing');
    expect(profile.createsFor(stack.sim, attempt)).toBe(0);
    const row = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attempt.id });
    expect(row.nextSendAt).not.toBeNull();
    expect(row.leaseExpiresAt).toBeNull();
  });

  it('connect refused: nothing was sent, so the attempt stays pending', async () => {
    const charge = await createCharge(stack, profile.chargeBody());
    await stack.sim.refuseConnections();
    let view;
    try {
      view = await submit(stack, charge.id);
    } finally {
      await stack.sim.acceptConnections();
    }
    expect(view.attempts[0]).toMatchObject({ status: 'pending', httpAttempts: 1, lastError: { reason: profile.refusedFirstSendReason } });
    expect(profile.requestsFor(stack.sim, view.attempts[0])).toBe(0);
    expect(stack.sim.stats().faultsInjected.refuse_connections).toBe(1);
  });
});

describe.each(PROVIDER_PROFILES)('resolution scenarios with a worker running ($provider)', (profile) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({
      worker: true,
      env: { CONSISTENT_LOOKUP_GRACE_MS: '400', RESOLUTION_MAX_TRIES: '40', ASAAS_CONSISTENCY_WINDOW_MS: '4000' },
    });
  });
  afterAll(async () => stack.close());

  async function settle(chargeId: string, status: string, what: string): Promise<ChargeView> {
    return waitFor(() => getCharge(stack, chargeId), (v) => v.status === status, 15_000, what);
  }

  it.each<[CreateFault]>([['hang_after_create'], ['500_after_create']])(
    '%s: the resolver finds the one payment and the attempt succeeds, with nothing sent twice',
    async (fault) => {
      const body = profile.chargeBody();
      stack.sim.setFaults({ rules: [{ fault, match: { customerId: body.customerId as string } }] });
      const charge = await createCharge(stack, body);
      expect((await submit(stack, charge.id)).attempts[0].status).toBe('unknown');
      const done = await settle(charge.id, 'succeeded', 'resolution');
      const attempt = done.attempts[0];
      expect(attempt.resolvedBy).toBe('resolver');
      expect(attempt.providerChargeId).toBe(profile.chargesFor(stack.sim, attempt.id)[0].id);
      expect(profile.requestsFor(stack.sim, attempt)).toBe(1);
      expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:resolver']);
      await expectAtMostOnePaymentPerCharge(stack, profile, done);
    },
  );

  it('a lagging lookup: "not found" inside the consistency window is not trusted, and the payment is found once visible', async () => {
    const body = profile.chargeBody();
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId: body.customerId as string } }] });
    profile.setLookupLag(stack.sim, 1500);
    try {
      const charge = await createCharge(stack, body);
      const { attempts } = await submit(stack, charge.id);
      const done = await settle(charge.id, 'succeeded', 'resolution through the lag');
      const lookups = await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId: attempts[0].id, kind: 'lookup' });
      // Only a provider whose lookup lags ever answers "not found" for a payment that exists.
      const misses = lookups.filter((l) => l.outcome === 'not_found').length;
      if (profile.lookupLags) expect(misses).toBeGreaterThanOrEqual(1);
      else expect(misses).toBe(0);
      expect(lookups.at(-1)!.outcome).toBe('found');
      expect(profile.requestsFor(stack.sim, attempts[0])).toBe(1);
      await expectAtMostOnePaymentPerCharge(stack, profile, done);
    } finally {
      profile.setLookupLag(stack.sim, 0);
    }
  });

  it('429 then a resend by the worker: the attempt succeeds with one payment (the 429 processed nothing)', async () => {
    const body = profile.chargeBody();
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    expect((await submit(stack, charge.id)).attempts[0].status).toBe('pending');
    const done = await settle(charge.id, 'succeeded', 'the resend');
    expect(done.attempts[0]).toMatchObject({ httpAttempts: 2, resolvedBy: 'submit' });
    expect(profile.requestsFor(stack.sim, done.attempts[0])).toBe(2);
    await expectAtMostOnePaymentPerCharge(stack, profile, done);
  });

  it('a process that dies between claim and response: the sweeper makes the attempt unknown, it is resolved, nothing is sent twice', async () => {
    const charge = await createCharge(stack, profile.chargeBody());
    // Phase 1 and the claim ran, the request went out and created the payment, then the process died.
    const opened = await stack.app.get(ChargeAttemptOpener).openOrReuse(charge.id, 'crashing-worker');
    if (opened.kind !== 'open') throw new Error('expected an open attempt');
    const attempt = opened.attempt;
    const sent = await stack.app.get(GatewayRegistry).get(profile.provider).createCharge(attempt.idempotencyKey, attempt.payload);
    expect(sent.kind).toBe('response');

    // While the lease is held a submit must not send again.
    expect((await submit(stack, charge.id)).attempts[0].status).toBe('pending');
    expect(profile.requestsFor(stack.sim, attempt)).toBe(1);

    await stack.db.query(`UPDATE attempts SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [attempt.id]);
    expect((await stack.app.get(OpenAttemptSweeper).sweep()).leasesExpired).toBeGreaterThanOrEqual(1);
    const done = await settle(charge.id, 'succeeded', 'resolution after the crash');
    expect(await transitionsOf(stack, attempt.id)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→succeeded:resolver']);
    expect(profile.requestsFor(stack.sim, attempt)).toBe(1);
    expect(done.attempts[0].providerChargeId).toBe(profile.chargesFor(stack.sim, attempt.id)[0].id);
    await expectAtMostOnePaymentPerCharge(stack, profile, done);
  });

  it('20 concurrent submits of one charge: one attempt, one payment', async () => {
    const charge = await createCharge(stack, profile.chargeBody({ orderId: `order-${randomUUID()}` }));
    const views = await Promise.all(Array.from({ length: 20 }, () => submit(stack, charge.id)));
    expect(new Set(views.flatMap((v) => v.attempts.map((a) => a.id))).size).toBe(1);
    const done = await settle(charge.id, 'succeeded', 'the charge');
    expect(profile.requestsFor(stack.sim, done.attempts[0])).toBe(1);
    await expectAtMostOnePaymentPerCharge(stack, profile, done);
  });
});

describe.each(PROVIDER_PROFILES)('a late truth: the customer resubmits after a not-found failure while the late payment appears ($provider)', (profile) => {
  let stack: TestStack;
  beforeAll(async () => {
    // "Not found" is trusted 300 ms after a send ended; the late create lands 3 s after arrival.
    stack = await startTestStack({ worker: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '300', ASAAS_CONSISTENCY_WINDOW_MS: '300', RESOLUTION_MAX_TRIES: '10' } });
  });
  afterAll(async () => stack.close());

  it('the previous reference is queried once more, the payment found there goes to a person, and no second payment is created', async () => {
    const body = profile.chargeBody();
    stack.sim.configure({ hangMs: 3000 });
    stack.sim.setFaults({ rules: [{ fault: 'create_late', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    const attempt = attempts[0];
    expect(attempt.status).toBe('unknown');

    // The resolver, after the window, rightly finds nothing yet: failed as not found.
    const failed = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'failed', 10_000, 'the not-found failure');
    expect(failed.attempts[0].resolvedBy).toBe('resolver');
    expect(profile.chargesFor(stack.sim, attempt.id)).toHaveLength(0);

    // Then the provider creates the payment, and no webhook tells us.
    await waitFor(async () => profile.chargesFor(stack.sim, attempt.id).length, (n) => n === 1, 10_000, 'the late create');
    expect(stack.sim.stats().faultsInjected.create_late).toBe(1);

    // The customer tries again, twice: the re-check finds the payment (a late capture), nothing new is sent, a person decides.
    for (let i = 0; i < 2; i += 1) {
      await submitRefusedAsCaptured(stack, charge.id, attempt.id);
      const view = await getCharge(stack, charge.id);
      expect(view.status).toBe('succeeded');
      expect(view.attempts).toHaveLength(1);
    }
    expect(profile.requestsFor(stack.sim, attempt)).toBe(1);
    const rechecks = await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId: attempt.id, kind: 'recheck' });
    expect(rechecks.map((r) => r.outcome)).toEqual(['found']);
    const [item] = await stack.db.query<Array<{ reason: string }>>(`SELECT reason FROM review_items WHERE attempt_id = $1`, [attempt.id]);
    expect(item.reason).toBe('provider_success_after_failure');
    await expectAtMostOnePaymentPerCharge(stack, profile, await getCharge(stack, charge.id));
  });

  it('a clean miss on the re-check lets a new attempt open; the charge ends with one payment', async () => {
    const body = profile.chargeBody();
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    await submit(stack, charge.id);
    await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'failed', 10_000, 'the not-found failure');
    const view = await submit(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts.map((a) => a.status)).toEqual(['failed', 'succeeded']);
    const rechecks = await stack.db.getRepository(ProviderCallEntity).findBy({ attemptId: view.attempts[0].id, kind: 'recheck' });
    expect(rechecks.map((r) => r.outcome)).toEqual(['not_found']);
    await expectAtMostOnePaymentPerCharge(stack, profile, view);
  });
});
