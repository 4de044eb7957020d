import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openReviewItem } from '@app/review/items';
import { committedCents, postRefund, refund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * A refund whose first attempt was declined and retried: the provider then reports the FIRST attempt refunded
 * after all. The retry must never refund the customer a second time: one that never reached the provider is not
 * sent, one that may have is unknown and before a person with both refunds as evidence. Real api, PostgreSQL,
 * Redis and the simulator over HTTP (its webhooks delivered to the api), no worker: every send is the test's.
 */
describe('a late refund success and the retry of the same refund', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.close());
  beforeEach(() => {
    stack.sim.setFaults({});
    stack.sim.configure({ webhook: { url: null } });
  });

  /** A charge of 1 000 and a refund of 400 that the simulator declined: failed by us, its 400 given back. */
  async function declinedRefundOf400() {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId, amountCents: 1000 });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const declined = await refund(stack, charge.id, 400);
    expect(declined.status).toBe('failed');
    stack.sim.setFaults({});
    const [atProvider] = stack.sim.refunds({ refundAttemptId: declined.attempts[0].id });
    return { customerId, charge, declined, providerRefundId: atProvider.id, intentId: charge.attempts[0].providerChargeId! };
  }

  async function reportLateSuccess(providerRefundId: string) {
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, duplicates: 1, dropRate: 0 } });
    stack.sim.setRefundStatus(providerRefundId, 'succeeded');
    await stack.sim.webhooksIdle();
  }

  const submitRefund = (refundId: string) => stack.http.post(`/refunds/${refundId}/submit`).set(stack.auth('merchant'));

  async function attemptRow(id: string) {
    const [row] = await stack.db.query<Array<{ status: string; idempotency_key: string; provider_ref: string | null }>>(
      `SELECT status, idempotency_key, provider_ref FROM attempts WHERE id = $1`,
      [id],
    );
    return row;
  }

  it('a retry waiting for its backoff when the first attempt turns out refunded is never sent: the customer is refunded once', async () => {
    const { customerId, charge, declined, providerRefundId, intentId } = await declinedRefundOf400();
    // The retry's first send is refused before processing (429): it waits, pending, for its backoff.
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId } }] });
    const retried = await submitRefund(declined.id);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(stack.sim.stats().faultsInjected['429']).toBeGreaterThanOrEqual(1);
    stack.sim.setFaults({});
    const retry = retried.body.attempts[1];
    expect(await attemptRow(retry.id)).toMatchObject({ status: 'pending' });
    expect(await committedCents(stack, charge.id)).toBe(400);

    await reportLateSuccess(providerRefundId);
    // The backoff has run out: a submit (or the retry job) would send the retry now.
    await waitFor(
      () => stack.db.query<Array<{ due: boolean }>>(`SELECT next_send_at IS NULL OR next_send_at <= now() AS due FROM attempts WHERE id = $1`, [retry.id]),
      (rows) => rows[0].due,
      5000,
      'the retry to be due',
    );
    expect((await submitRefund(declined.id)).status).toBe(200);

    expect(stack.sim.stats().refundsByIdempotencyKey[retry.idempotencyKey]).toBeUndefined();
    const executed = stack.sim.refunds({ paymentIntentId: intentId }).filter((r) => r.status === 'succeeded');
    expect(executed.map((r) => r.id)).toEqual([providerRefundId]);
    const [transition] = await stack.db.query(`SELECT from_status, to_status, detail->>'reason' AS reason FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'failed'`, [retry.id]);
    expect(transition).toEqual({ from_status: 'pending', to_status: 'failed', reason: 'refund_made_by_earlier_attempt' });
    // The retry's hold is given back; the late refund counts on its own: 600 still refundable, not 200.
    expect(await committedCents(stack, charge.id)).toBe(0);
    expect((await postRefund(stack, charge.id, { amountCents: 601 })).body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 600 } });
  });

  it('a retry on the wire when the first attempt turns out refunded becomes unknown, before a person with both refunds', async () => {
    const { customerId, declined, providerRefundId, intentId } = await declinedRefundOf400();
    // The retry's create executes at the provider, then its answer never comes back while the fact arrives.
    stack.sim.setFaults({ rules: [{ fault: 'hang_after_create', match: { customerId } }] });
    const onTheWire = submitRefund(declined.id).then((res) => res);
    const retryRefund = await waitFor(
      async () => stack.sim.refunds({ paymentIntentId: intentId }).filter((r) => r.id !== providerRefundId),
      (found) => found.length === 1,
      5000,
      'the retry to reach the provider',
    );
    const retryId = retryRefund[0].metadata.refund_attempt_id;
    stack.sim.setFaults({});
    await reportLateSuccess(providerRefundId);
    const [item] = await stack.db.query<Array<{ reason: string; state: string; findings: Record<string, unknown> }>>(
      `SELECT reason, state, evidence->'findings' AS findings FROM review_items WHERE attempt_id = $1`,
      [retryId],
    );
    expect(item).toMatchObject({
      reason: 'duplicate_provider_charges',
      state: 'open',
      findings: { reason: 'refund_made_by_earlier_attempt', lateRefundedAttemptId: declined.attempts[0].id, lateProviderRefundId: providerRefundId, retryAttemptId: retryId, retrySendClaimHeld: true },
    });
    expect((await attemptRow(retryId)).status).toBe('unknown');
    const [lateItem] = await stack.db.query<Array<{ retries: unknown }>>(
      `SELECT evidence->'findings'->'lateRefund'->'retries' AS retries FROM review_items WHERE attempt_id = $1`,
      [declined.attempts[0].id],
    );
    expect(lateItem.retries).toEqual([{ attemptId: retryId, outcome: 'may_have_reached', providerRefundId: null }]);

    expect((await onTheWire).status).toBe(200);
    // The provider did refund twice (the retry left before the fact): a person has it, nothing sent a third.
    expect(stack.sim.stats().faultsInjected['hang_after_create']).toBeGreaterThanOrEqual(1);
    expect(stack.sim.refunds({ paymentIntentId: intentId }).filter((r) => r.status === 'succeeded')).toHaveLength(2);
    expect((await submitRefund(declined.id)).status).toBe(200);
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toHaveLength(2);
    expect((await attemptRow(retryId)).status).toBe('unknown');
  });
  it('a retry that had already refunded when the first attempt turns out refunded too: the late item says the customer got it twice', async () => {
    const { declined, providerRefundId, intentId } = await declinedRefundOf400();
    const retried = await submitRefund(declined.id);
    expect(retried.body.status).toBe('succeeded');
    const retry = retried.body.attempts[1];

    await reportLateSuccess(providerRefundId);
    expect(stack.sim.refunds({ paymentIntentId: intentId }).filter((r) => r.status === 'succeeded')).toHaveLength(2);
    const [lateItem] = await stack.db.query<Array<{ reason: string; retries: unknown }>>(
      `SELECT reason, evidence->'findings'->'lateRefund'->'retries' AS retries FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`,
      [declined.attempts[0].id],
    );
    expect(lateItem).toEqual({ reason: 'duplicate_provider_charges', retries: [{ attemptId: retry.id, outcome: 'already_refunded', providerRefundId: stack.sim.refunds({ refundAttemptId: retry.id })[0].id }] });
  });

  it('money that left twice becomes the reason of an item already open for something routine, the old reason kept', async () => {
    const { declined } = await declinedRefundOf400();
    const attemptId = declined.attempts[0].id;
    await stack.db.transaction(async (em) => {
      await openReviewItem(em, attemptId, 'lease_expired', { why: 'routine' });
      await openReviewItem(em, attemptId, 'duplicate_provider_charges', { why: 'twice' });
      await openReviewItem(em, attemptId, 'provider_refund', { why: 'later' });
    });
    const [item] = await stack.db.query<Array<{ reason: string; later: Array<{ reason: string; reasonBefore: string }> }>>(
      `SELECT reason, evidence->'laterFindings' AS later FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`,
      [attemptId],
    );
    expect(item.reason).toBe('duplicate_provider_charges');
    expect(item.later.map((f) => [f.reason, f.reasonBefore])).toEqual([
      ['duplicate_provider_charges', 'lease_expired'],
      ['provider_refund', 'duplicate_provider_charges'],
    ]);
  });
});
