import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChargeView } from '@app/charges';
import { closeOpenReviewItem } from '@app/review/items';
import { createCharge, getCharge, submit, submitRefusedAsCaptured } from './support/charges.js';
import { reconcile } from './support/reconciliation.js';
import { newReviewer, type Reviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * DESIGN.md section 8: once the provider holds a captured charge for any attempt of a charge, that charge never
 * opens another attempt, whatever a person acknowledges later. Driven end to end as a customer and a reviewer
 * would, on the real api, worker, PostgreSQL, Redis and simulator: the provider holds A1's create past our grace
 * (fault `create_late`), the resolver rightly fails A1 as not found, the customer clicks again and A2 is declined
 * (fault `decline`), then A1's create lands captured.
 */
describe('a captured charge never opens another attempt', () => {
  let stack: TestStack;
  let alice: Reviewer;
  beforeAll(async () => {
    // Not found is trusted 300 ms after a send ended; the held create executes 5 s after it arrived.
    // The statement's day in UTC, the day the test dates its run: in America/Sao_Paulo, UTC's today is still the day
    // before from 00:00 to 03:00 UTC, and a run of it (the clock a day on) would be refused as not yet ended.
    stack = await startTestStack({ reconciliationDaysLater: 1, worker: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '300', RESOLUTION_MAX_TRIES: '10', RECONCILIATION_TZ: 'UTC' } });
    alice = await newReviewer(stack, 'alice');
  });
  afterAll(async () => stack.close());
  beforeEach(async () => {
    await stack.sim.reset();
    stack.sim.configure({ hangMs: 5000, webhook: { url: `${stack.baseUrl}/webhooks/stripe` } });
  });

  const captures = (customerId: string) => stack.sim.intents({ customerId }).filter((i) => i.status === 'succeeded');
  const openItemOf = async (attemptId: string) =>
    waitFor(
      () => stack.db.query<Array<{ id: string; reason: string }>>(`SELECT id, reason FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`, [attemptId]),
      (rows) => rows.length === 1,
      15_000,
      'the late success to reach a person',
    ).then((rows) => rows[0]);

  /** Steps 1 and 2 (and, with `decline`, the second click): A1 is failed as not found while the provider still holds it. */
  async function failedWhileTheProviderHoldsIt(options: { declineSecondClick: boolean }): Promise<{ charge: ChargeView; customerId: string; a1: string }> {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({
      rules: [{ fault: 'create_late', match: { customerId } }, ...(options.declineSecondClick ? [{ fault: 'decline' as const, match: { customerId } }] : [])],
    });
    const charge = await createCharge(stack, { customerId, amountCents: 4990 });
    expect((await submit(stack, charge.id)).attempts[0].status).toBe('unknown');
    const failed = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'failed', 4000, 'A1 failed as not found');
    const a1 = failed.attempts[0].id;
    expect(failed.attempts[0].resolvedBy).toBe('resolver');
    expect(captures(customerId)).toHaveLength(0);
    if (options.declineSecondClick) {
      const second = await submit(stack, charge.id);
      expect(second.attempts.map((a) => [a.status, a.resolvedBy])).toEqual([['failed', 'resolver'], ['failed', 'submit']]);
      expect(stack.sim.stats().faultsInjected.decline).toBe(1);
    }
    return { charge, customerId, a1 };
  }

  /** Step 3: the held create lands, captured, and its webhook opens a review item on A1. */
  async function lateCaptureLands(customerId: string, a1: string): Promise<{ itemId: string; intentId: string }> {
    await waitFor(async () => captures(customerId), (c) => c.length === 1, 10_000, 'the late create');
    expect(stack.sim.stats().faultsInjected.create_late).toBe(1);
    await waitFor(
      () => stack.db.query(`SELECT 1 FROM webhook_events WHERE attempt_id = $1 AND type = 'payment_intent.succeeded'`, [a1]),
      (rows) => rows.length === 1,
      10_000,
      'the late success webhook',
    );
    const item = await openItemOf(a1);
    expect(item.reason).toBe('provider_success_after_failure');
    return { itemId: item.id, intentId: captures(customerId)[0].id };
  }

  async function acknowledge(itemId: string, followUp: string): Promise<void> {
    await stack.http.post(`/review/items/${itemId}/claim`).set(alice.headers).expect(200);
    const res = await stack.http.post(`/review/items/${itemId}/decision`).set(alice.headers).send({ action: 'acknowledge', followUp, reason: 'checked the dashboard: the customer paid' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** Steps 5: two more clicks are refused naming A1; one capture at the provider, no new attempt, the charge succeeded by A1. */
  async function expectPaidOnceBy(chargeId: string, customerId: string, a1: string, intentId: string, attempts: number): Promise<void> {
    const createsBefore = stack.sim.stats().requests.creates;
    for (let click = 0; click < 2; click++) await submitRefusedAsCaptured(stack, chargeId, a1);
    expect(stack.sim.stats().requests.creates).toBe(createsBefore);
    expect(captures(customerId)).toHaveLength(1);
    const view = await getCharge(stack, chargeId);
    expect(view.attempts).toHaveLength(attempts);
    expect(view.status).toBe('succeeded');
    expect(view.capturedBy).toEqual({ attemptId: a1, providerChargeId: intentId, late: true });
    // The terminal state is never rewritten: A1 stays failed, its capture recorded beside it.
    expect(view.attempts[0]).toMatchObject({ id: a1, status: 'failed', lateCaptureProviderChargeId: intentId });
  }

  it('a reviewer acknowledging the late success of A1 after A2 was declined: two more clicks charge nobody', async () => {
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: true });
    const { itemId, intentId } = await lateCaptureLands(customerId, a1);
    // While the person decides, the customer already reads what the provider holds.
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
    await acknowledge(itemId, 'keep_capture');
    await expectPaidOnceBy(charge.id, customerId, a1, intentId, 2);
  });

  it('the same when A1 is the last attempt and already carries rechecked_at from a clean re-check', async () => {
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: false });
    // A re-check that went clean before the late create landed (its submit then stopped before opening A2).
    await stack.db.query(`UPDATE attempts SET rechecked_at = now() WHERE id = $1`, [a1]);
    const { itemId, intentId } = await lateCaptureLands(customerId, a1);
    await acknowledge(itemId, 'recorded_externally');
    await expectPaidOnceBy(charge.id, customerId, a1, intentId, 1);
  });

  it('the same when the item is closed by another path than a person (as reconciliation\'s closer used to close it)', async () => {
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: true });
    const { intentId } = await lateCaptureLands(customerId, a1);
    // Reconciliation's closer no longer closes an item the line does not answer: it only adds the line as evidence.
    expect(await stack.db.transaction((em) => closeOpenReviewItem(em, a1, intentId, { runId: 'test', line: intentId }))).toBe(false);
    const [{ evidence }] = await stack.db.query(`SELECT evidence FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`, [a1]);
    expect(evidence.reconciliation).toMatchObject({ line: intentId });
    // Closed anyway, the way that closer wrote it: the capture still stands.
    await stack.db.query(
      `UPDATE review_items SET state = 'closed', decision = 'succeeded', decided_by = 'reconciliation', decided_at = now(), closed_at = now()
        WHERE attempt_id = $1 AND state <> 'closed'`,
      [a1],
    );
    await expectPaidOnceBy(charge.id, customerId, a1, intentId, 2);
  });

  it('a late capture learnt only from the statement (every webhook lost) is recorded by reconciliation and blocks the next click', async () => {
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, dropRate: 1 } });
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: true });
    await waitFor(async () => captures(customerId), (c) => c.length === 1, 10_000, 'the late create');
    const intentId = captures(customerId)[0].id;
    expect((await getCharge(stack, charge.id)).status).toBe('failed');

    const run = await reconcile(stack, new Date().toISOString().slice(0, 10));
    expect(run.status).toBe('succeeded');
    const item = await openItemOf(a1);
    expect(item.reason).toBe('provider_success_after_failure');
    // The statement line is the charge's own capture now: no refund is proposed behind the person's back.
    const [divergence] = await stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM reconciliation_divergences WHERE provider_charge_id = $1`, [intentId]);
    expect(divergence.n).toBe(0);
    await acknowledge(item.id, 'keep_capture');
    await expectPaidOnceBy(charge.id, customerId, a1, intentId, 2);
  });

  it('a clean re-check goes stale: with every webhook lost, the next click after a decline queries A1 again and finds its capture', async () => {
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, dropRate: 1 } });
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: true });
    await waitFor(async () => captures(customerId), (c) => c.length === 1, 10_000, 'the late create');
    const intentId = captures(customerId)[0].id;
    // A2's submit re-checked A1 cleanly before the create landed; that check is older than RECHECK_VALID_MS now.
    const [{ rechecked }] = await stack.db.query(`SELECT rechecked_at IS NOT NULL AS rechecked FROM attempts WHERE id = $1`, [a1]);
    expect(rechecked).toBe(true);
    await stack.db.query(`UPDATE attempts SET rechecked_at = rechecked_at - interval '2 minutes' WHERE id = $1`, [a1]);
    expect((await getCharge(stack, charge.id)).status).toBe('failed');
    await expectPaidOnceBy(charge.id, customerId, a1, intentId, 2);
  });

  it('refund_capture refunds the late capture through the charge\'s own refund path; the charge reads refunded and still opens nothing', async () => {
    const { charge, customerId, a1 } = await failedWhileTheProviderHoldsIt({ declineSecondClick: true });
    const { itemId, intentId } = await lateCaptureLands(customerId, a1);
    await stack.http.post(`/review/items/${itemId}/claim`).set(alice.headers).expect(200);
    // no_action would leave the money unanswered, and refund_needed would bypass the charge's refund cap.
    for (const [followUp, extra] of [['no_action', {}], ['refund_needed', { providerChargeId: intentId }]] as const) {
      const refused = await stack.http.post(`/review/items/${itemId}/decision`).set(alice.headers).send({ action: 'acknowledge', followUp, reason: 'trying the wrong follow-up', ...extra });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'review_follow_up_mismatch', details: { field: 'followUp' } });
    }
    const res = await stack.http.post(`/review/items/${itemId}/decision`).set(alice.headers).send({ action: 'acknowledge', followUp: 'refund_capture', reason: 'the customer asked for the money back' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'refunded', 10_000, 'the refund of the late capture');
    expect(view.refunds).toEqual([expect.objectContaining({ amountCents: 4990, status: 'succeeded' })]);
    expect(stack.sim.refunds({ paymentIntentId: intentId })).toHaveLength(1);
    // A second refund of the same capture is refused by the charge's cap.
    const again = await stack.http.post(`/charges/${charge.id}/refunds`).set(stack.auth('merchant')).send({ amountCents: 1 });
    expect(again.status).toBe(422);
    await submitRefusedAsCaptured(stack, charge.id, a1);
    expect(captures(customerId)).toHaveLength(1);
  });
});
