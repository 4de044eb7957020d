import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { reconcile } from './support/reconciliation.js';
import { committedCents, postRefund, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * A refund whose first attempt was declined and whose retry waits in its backoff; no webhook ever says the first
 * attempt refunded after all, only the provider's statement does. The nightly run must treat that line as the
 * provider fact it is: the late refund recorded and counted once in the cap, the retry never sent, a person told
 * with the line as evidence. Own database and simulator, no webhooks, no refund worker: every send is the test's.
 */
describe('a late refund found by reconciliation and the retry of the same refund', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_late_refund_retry');
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC' } });
    stack.sim.configure({ webhook: { url: null } });
  });
  afterAll(async () => stack.close());

  const submitRefund = (refundId: string) => stack.http.post(`/refunds/${refundId}/submit`).set(stack.auth('merchant'));

  it('a retry waiting for its backoff when the statement shows the first attempt refunded is never sent', async () => {
    // A charge of 1 000 and a refund of 400 the provider declined: failed by us, its 400 given back.
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId, amountCents: 1000 });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const declined = await refund(stack, charge.id, 400);
    expect(declined.status).toBe('failed');
    const firstAttempt = declined.attempts[0].id;
    const [atProvider] = stack.sim.refunds({ refundAttemptId: firstAttempt });
    const intentId = charge.attempts[0].providerChargeId!;

    // The retry's first send is refused before processing (429): it waits, pending, for its backoff.
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId } }] });
    const retried = await submitRefund(declined.id);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(stack.sim.stats().faultsInjected['429']).toBeGreaterThanOrEqual(1);
    stack.sim.setFaults({});
    const retry = retried.body.attempts[1] as { id: string; idempotencyKey: string };
    const [pending] = await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [retry.id]);
    expect(pending).toEqual({ status: 'pending' });

    // The provider executed the first refund after all; only its statement says so (no webhook is configured).
    stack.sim.setRefundStatus(atProvider.id, 'succeeded');
    const run = await reconcile(stack, today, 'api');
    expect(run.divergences).toMatchObject({ refund_provider_only: 1 });

    const [late] = await stack.db.query(`SELECT status, late_refund_provider_ref, late_refund_amount_cents::int AS amount FROM attempts WHERE id = $1`, [firstAttempt]);
    expect(late).toEqual({ status: 'failed', late_refund_provider_ref: atProvider.id, amount: 400 });

    // The backoff has run out: a submit (or the retry job) would send the retry now.
    await waitFor(
      () => stack.db.query<Array<{ due: boolean }>>(`SELECT next_send_at IS NULL OR next_send_at <= now() AS due FROM attempts WHERE id = $1`, [retry.id]),
      (rows) => rows[0].due,
      5000,
      'the retry to be due',
    );
    expect((await submitRefund(declined.id)).status).toBe(200);
    expect(stack.sim.stats().refundsByIdempotencyKey[retry.idempotencyKey]).toBeUndefined();
    expect(stack.sim.refunds({ paymentIntentId: intentId }).filter((r) => r.status === 'succeeded').map((r) => r.id)).toEqual([atProvider.id]);
    const [stopped] = await stack.db.query(`SELECT from_status, to_status, cause, detail->>'reason' AS reason FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'failed'`, [retry.id]);
    expect(stopped).toEqual({ from_status: 'pending', to_status: 'failed', cause: 'reconciliation', reason: 'refund_made_by_earlier_attempt' });

    // The 400 counts once (the late refund, not the divergence beside it as well): 600 still refundable, not 200.
    expect(await committedCents(stack, charge.id)).toBe(0);
    expect((await postRefund(stack, charge.id, { amountCents: 601 })).body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 600 } });

    // One item for a person, the statement line and the stopped retry as its evidence.
    const items = await stack.db.query<Array<{ attempt_id: string; state: string; findings: Record<string, unknown> }>>(
      `SELECT i.attempt_id, i.state, i.evidence->'findings' AS findings FROM review_items i JOIN attempts a ON a.id = i.attempt_id WHERE a.refund_id = $1`,
      [declined.id],
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      attempt_id: firstAttempt,
      state: 'open',
      findings: {
        cause: 'reconciliation',
        runId: run.id,
        providerChargeId: atProvider.id,
        lineId: expect.any(String),
        lateRefund: { providerRefundId: atProvider.id, amountCents: 400, countedInCap: true, retries: [{ attemptId: retry.id, outcome: 'not_sent' }] },
      },
    });

    // A second run of the day changes nothing: no second item, the cap the same.
    await reconcile(stack, today, 'api');
    expect(await stack.db.query(`SELECT 1 FROM review_items i JOIN attempts a ON a.id = i.attempt_id WHERE a.refund_id = $1`, [declined.id])).toHaveLength(1);
    expect((await postRefund(stack, charge.id, { amountCents: 601 })).body).toMatchObject({ details: { refundableCents: 600 } });
  });
});
