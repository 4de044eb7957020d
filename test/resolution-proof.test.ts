import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderFactApplier } from '@app/attempts';
import { ProviderCallEntity } from '@app/database';
import { resolutionQueueFor } from '@app/queues';
import { UnknownAttemptResolver } from '@app/resolution';
import { createCharge, submit } from './support/charges.js';
import { insertRefundProposal } from './support/reconciliation.js';
import { passGrace } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 24, holes 2 and 3: what may prove that nothing was charged. A 2xx whose body is no list (a proxy's error
 * page, `{}`) shows nothing; and the grace is measured from when the lookup left, re-checked under the lock.
 */
describe('what proves a charge absent', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '60000', RESOLUTION_MAX_TRIES: '1000' } });
  });
  afterAll(async () => stack.close());

  async function unknownWithNothingAtProvider(provider: 'stripe' | 'asaas' = 'stripe'): Promise<string> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const body = provider === 'asaas' ? { customerId, provider, currency: 'brl', billingType: 'PIX', paymentMethodId: undefined } : { customerId };
    const charge = await createCharge(stack, body);
    const view = await submit(stack, charge.id);
    expect(view.attempts[0].status).toBe('unknown');
    return view.attempts[0].id;
  }
  const statusOf = async (attemptId: string) => (await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status as string;

  it('never fails an attempt on a 2xx lookup that is not a list: the answer proves nothing and the attempt stays unknown', async () => {
    const attemptId = await unknownWithNothingAtProvider();
    await passGrace(stack, attemptId);
    stack.sim.setFaults({ rules: [{ fault: 'malformed_200', on: 'query' }] });
    const decision = await stack.app.get(UnknownAttemptResolver).resolve(attemptId);
    expect(stack.sim.stats().faultsInjected.query_malformed_200).toBe(1);
    expect(decision?.action).toBe('wait');
    expect(await statusOf(attemptId)).toBe('unknown');
    const [lookup] = await stack.db.getRepository(ProviderCallEntity).find({ where: { attemptId, kind: 'lookup' }, order: { at: 'DESC' }, take: 1 });
    expect(lookup.outcome).toBe('error');
    // The next well-formed answer after the grace does prove it.
    expect((await stack.app.get(UnknownAttemptResolver).resolve(attemptId))?.action).toBe('fail_not_found');
    expect(await statusOf(attemptId)).toBe('failed');
  });

  it('never fails as not found an attempt whose send the provider answered 2xx: a lookup that misses it goes to a person', async () => {
    // What an Asaas refund meets when the refund POST is answered 2xx but the payment's refunds[] does not show it
    // yet: the send is classified created_not_final, and every lookup of that list finds nothing.
    const attemptId = await unknownWithNothingAtProvider();
    await stack.db.query(`UPDATE attempts SET last_error = jsonb_build_object('reason', 'created_not_final') WHERE id = $1`, [attemptId]);
    await passGrace(stack, attemptId);
    expect((await stack.app.get(UnknownAttemptResolver).resolve(attemptId))?.action).toBe('fail_not_found');
    expect(await statusOf(attemptId)).toBe('unknown');
    const [item] = await stack.db.query(`SELECT reason, evidence FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`, [attemptId]);
    expect(item.reason).toBe('absence_unprovable');
    expect(item.evidence.findings.reason).toBe('provider_answered_2xx_but_lookup_finds_nothing');
  });

  it('an approval of a refund proposal waits for the recording of that provider charge as our success, then refuses it', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, { customerId });
    const attemptId = (await submit(stack, charge.id)).attempts[0].id;
    const [intent] = stack.sim.intents({ attemptId });
    // Last night's statement saw the intent before any attempt of ours held it: a provider-only proposal.
    const { proposalId } = await insertRefundProposal(stack, { providerChargeId: intent.id, amountCents: charge.amountCents });
    const recorder = stack.db.createQueryRunner();
    await recorder.connect();
    await recorder.startTransaction();
    let approval: Promise<{ status: number; body: { code?: string } }> | undefined;
    try {
      // A webhook records the intent as the attempt's success, and has not committed yet.
      await stack.app.get(ProviderFactApplier).apply(recorder.manager, attemptId, { outcome: 'succeeded', providerChargeId: intent.id, amountCents: charge.amountCents, currency: charge.currency }, { cause: 'webhook', actor: 'webhook:stripe', evidence: {} });
      approval = Promise.resolve(stack.http.post(`/reconciliation/refund-proposals/${proposalId}/approve`).set(stack.auth('admin')).send({ note: 'not ours' }));
      await waitFor(
        () => stack.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`),
        (rows) => rows[0].n > 0,
        10_000,
        'the approval to wait for the provider charge',
      );
      await recorder.commitTransaction();
    } finally {
      await recorder.release();
    }
    const answered = await approval;
    expect(answered.status).toBe(409);
    expect(answered.body.code).toBe('refund_proposal_stale');
    expect(stack.sim.refunds({ paymentIntentId: intent.id })).toEqual([]);
    expect((await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status).toBe('succeeded');
  });

  it('never fails a lookup that left before the grace covered a send that ended later (re-checked under the lock)', async () => {
    const attemptId = await unknownWithNothingAtProvider();
    await passGrace(stack, attemptId);
    // Hold the charge lock the resolver takes before failing; while it waits for it (after its lookup), a late
    // sender's answer ends a send: the lookup that left before that no longer covers the grace.
    const [{ charge_id: chargeId }] = await stack.db.query(`SELECT charge_id FROM attempts WHERE id = $1`, [attemptId]);
    const holder = stack.db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [chargeId]);
      const resolving = stack.app.get(UnknownAttemptResolver).resolve(attemptId);
      await waitFor(
        () =>
          stack.db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM charges c%SELECT charge_id FROM attempts%'`,
          ),
        (rows) => rows[0].n > 0,
        10_000,
        'the resolver to wait for the charge lock',
      );
      await holder.query(`UPDATE attempts SET last_send_ended_at = clock_timestamp() WHERE id = $1`, [attemptId]);
      await holder.commitTransaction();
      expect((await resolving)?.action).toBe('fail_not_found');
    } finally {
      await holder.release();
    }
    expect(await statusOf(attemptId)).toBe('unknown');
  });
});

/**
 * Issue 26: a miss waits only as long as a miss cannot prove absence. The grace is 60 s; Asaas' lagging search may
 * miss a payment for 120 s; the backoff would ask the second try 30 s later. A miss is asked again when a miss can
 * first prove absence: for Stripe when the grace ends, for Asaas when its window does (at the grace's end it could
 * only miss again and spend a try).
 */
describe('when a miss is asked again', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '60000', ASAAS_CONSISTENCY_WINDOW_MS: '120000', RESOLUTION_BACKOFF_MS: '2000,30000,60000' } });
  });
  afterAll(async () => stack.close());

  it.each([
    ['stripe', 50, 60],
    ['asaas', 100, 120],
  ] as const)('asks a %s miss inside the window again when absence becomes provable, not at the next backoff step', async (provider, sentAgoS, provableAfterS) => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_before_create', match: { customerId } }] });
    const body = provider === 'asaas' ? { customerId, provider, currency: 'brl', billingType: 'PIX', paymentMethodId: undefined } : { customerId };
    const attemptId = (await submit(stack, (await createCharge(stack, body)).id)).attempts[0].id;
    await stack.db.query(
      `UPDATE attempts SET last_sent_at = clock_timestamp() - make_interval(secs => $2), last_send_ended_at = clock_timestamp() - make_interval(secs => $2) WHERE id = $1`,
      [attemptId, sentAgoS],
    );
    expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toEqual({ action: 'wait', reason: 'not_found_inside_window' });
    const job = await stack.app.get<Queue>(getQueueToken(resolutionQueueFor(provider))).getJob(`resolve:${attemptId}:1`);
    // Provable (provableAfterS - sentAgoS) s after the update, plus the 1 s margin, less what this test took meanwhile.
    const untilProvableMs = (provableAfterS - sentAgoS) * 1000 + 1000;
    // The lookup's start travels as a JS Date, whole milliseconds: it may read up to 1 ms early (the safe way).
    expect(job?.opts.delay).toBeLessThanOrEqual(untilProvableMs + 1);
    expect(job?.opts.delay).toBeGreaterThan(untilProvableMs - 5000);
    await job?.remove();
  });
});
