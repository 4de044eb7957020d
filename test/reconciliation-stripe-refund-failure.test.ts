import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { reconcile } from './support/reconciliation.js';
import { committedCents, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 35: a Stripe refund that fails after its money left is reversed by a `refund_failure` balance transaction
 * (the refund's `failure_balance_transaction`). Read as "other" and dropped, the refund counted as money returned.
 * Now: our refund recorded succeeded and reversed at Stripe goes to a person as `refund_cancelled_at_provider`
 * (the cap is not given back on the statement's word), and a refund line a reversal cancels is no provider-only
 * refund and no evidence against a refund we had failed. Own database and simulator.
 */
describe('a Stripe refund reversed by refund_failure', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const planted = {} as { reversedRefund: string; reversedCharge: string; failedAttempt: string; failedProviderRefund: string };

  beforeAll(async () => {
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: await scratchDatabase('reconciliation_refund_failure'), RECONCILIATION_TZ: 'UTC' } });

    // Ours, succeeded, then failed at Stripe (the card account closed, say): refund line, then its reversal.
    const charge = await succeededCharge(stack);
    const ours = await refund(stack, charge.id, 1000);
    expect(ours.status).toBe('succeeded');
    const [atStripe] = stack.sim.refunds({ refundAttemptId: ours.attempts[0].id });
    planted.reversedRefund = atStripe.id;
    planted.reversedCharge = charge.id;

    // Ours failed (declined), while Stripe had in fact written the refund and then reversed it: no money moved.
    const declinedCustomer = `cus_dec${Date.now()}`;
    const declined = await succeededCharge(stack, { customerId: declinedCustomer });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId: declinedCustomer } }] });
    const refused = await refund(stack, declined.id, 2000);
    expect(refused.status).toBe('failed');
    planted.failedAttempt = refused.attempts[0].id;
    planted.failedProviderRefund = stack.sim.refunds({ refundAttemptId: planted.failedAttempt })[0].id;
    stack.sim.setRefundStatus(planted.failedProviderRefund, 'succeeded');

    const committedBefore = await committedCents(stack, charge.id);
    stack.sim.setRefundStatus(planted.reversedRefund, 'failed');
    stack.sim.setRefundStatus(planted.failedProviderRefund, 'failed');
    expect(stack.sim.refunds({ refundAttemptId: ours.attempts[0].id })[0]).toMatchObject({ status: 'failed', failure_balance_transaction: expect.stringMatching(/^txn_/) });
    expect(await committedCents(stack, charge.id)).toBe(committedBefore);
  });
  afterAll(async () => stack?.close());

  for (const source of ['api', 'report'] as const) {
    it(`puts our reversed success to a person and counts no reversed line as a refund (${source})`, async () => {
      const run = await reconcile(stack, today, source);
      expect(run.status).toBe('succeeded');
      const res = await stack.http.get(`/reconciliation/divergences?runId=${run.id}&limit=100`).set(stack.auth('admin'));
      const found = res.body.items as Array<{ kind: string; providerChargeId: string; chargeId: string; amountCents: number; detail: Record<string, unknown> }>;
      expect(found.map((d) => d.kind)).toEqual(['refund_cancelled_at_provider']);
      expect(found[0]).toMatchObject({ providerChargeId: planted.reversedRefund, chargeId: planted.reversedCharge, amountCents: 1000, detail: { lineKind: 'refund_failure' } });
      // The reversed line taught the failed refund nothing and put it to nobody: no money ever moved for it.
      expect(await stack.db.query(`SELECT id FROM review_items WHERE attempt_id = $1`, [planted.failedAttempt])).toEqual([]);
      expect((await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [planted.failedAttempt]))[0].status).toBe('failed');
      // The cap waits for a person: the refund still holds its amount on the charge.
      expect(await committedCents(stack, planted.reversedCharge)).toBe(1000);
      // What Stripe says was refunded is net of the reversal: nothing went back to the customer.
      const [totals] = await stack.db.query(`SELECT provider_refunded_cents AS c FROM charges WHERE id = $1`, [planted.reversedCharge]);
      expect(Number(totals.c)).toBe(0);
    });
  }
});
