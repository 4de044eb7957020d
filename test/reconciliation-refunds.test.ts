import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { transitionsOf } from './support/charges.js';
import { reconcile } from './support/reconciliation.js';
import { postRefund, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 24, "refunds are reconciled": the statement's refund lines against our refund attempts. A refund at the
 * provider we did not make (or recorded as failed) is `refund_provider_only` and caps what may still be refunded;
 * our success absent from the statement is `refund_missing_at_provider`; another amount `refund_amount_mismatch`;
 * an unknown refund of ours the statement shows learns its refund id, a failed one is never rewritten. Own database and
 * simulator, so no other file's refunds are in its day.
 */
describe('nightly reconciliation of refunds', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const planted = {} as {
    foreignRefundCharge: string;
    foreignRefundId: string;
    unknownAttempt: string;
    mismatchCharge: string;
    failedAttempt: string;
    failedCharge: string;
    failedProviderRefund: string;
    missingAttempt: string;
    mismatchProviderRefund: string;
  };
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}&limit=100`).set(stack.auth('admin'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items as Array<{ kind: string; providerChargeId: string | null; attemptId: string | null; chargeId: string | null; amountCents: number }>;
  };

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_refunds');
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC' } });

    // Ours and in the statement, for its amount: nothing to say.
    const matched = await succeededCharge(stack);
    expect((await refund(stack, matched.id, 1000)).status).toBe('succeeded');

    // Refunded at the provider by someone else (the dashboard, say): 700 of its 4990.
    const foreign = await succeededCharge(stack);
    planted.foreignRefundCharge = foreign.id;
    planted.foreignRefundId = `re_foreign${randomUUID().slice(0, 8)}`;
    stack.sim.addMovement(foreign.attempts[0].providerChargeId!, 'refund', { amount: 700, sourceId: planted.foreignRefundId });

    // Fault: the provider refunds, its answer is lost (500 after create): our refund attempt is unknown.
    const lostCustomer = `cus_${randomUUID().slice(0, 12)}`;
    const lost = await succeededCharge(stack, { customerId: lostCustomer });
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: lostCustomer } }] });
    const lostRefund = await refund(stack, lost.id, 1500);
    expect(stack.sim.stats().faultsInjected['500_after_create']).toBe(1);
    expect(lostRefund.attempts[0].status).toBe('unknown');
    planted.unknownAttempt = lostRefund.attempts[0].id;

    // Refused by the provider (our attempt failed, the amount released), then executed after all.
    const declinedCustomer = `cus_${randomUUID().slice(0, 12)}`;
    const declined = await succeededCharge(stack, { customerId: declinedCustomer });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId: declinedCustomer } }] });
    const refused = await refund(stack, declined.id, 4990);
    expect(refused.status).toBe('failed');
    planted.failedAttempt = refused.attempts[0].id;
    planted.failedCharge = declined.id;
    const [providerRefund] = stack.sim.refunds({ refundAttemptId: planted.failedAttempt });
    planted.failedProviderRefund = providerRefund.id;
    stack.sim.setRefundStatus(providerRefund.id, 'succeeded');

    // Our success the provider never saw: edited into our rows.
    const missing = await succeededCharge(stack);
    const refundId = randomUUID();
    planted.missingAttempt = randomUUID();
    await stack.db.query(`INSERT INTO refunds (id, charge_id, merchant_id, amount_cents, currency, created_by) VALUES ($1, $2, $3, 300, 'usd', 'test')`, [refundId, missing.id, stack.merchantId]);
    await stack.db.query(
      `INSERT INTO attempts (id, charge_id, operation, refund_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by)
       VALUES ($1, $2, 'refund', $3, $4, 'stripe', 'succeeded', $5, '', repeat('0', 64), 1, now(), 'submit')`,
      [planted.missingAttempt, missing.id, refundId, randomUUID(), `re_never${randomUUID().slice(0, 8)}`],
    );

    // Ours, but the provider refunded another amount than we recorded.
    const mismatch = await succeededCharge(stack);
    planted.mismatchCharge = mismatch.id;
    const mismatched = await refund(stack, mismatch.id, 2000);
    // As if we had asked for 1900 (and committed 1900 of the charge) while the provider refunded 2000.
    await stack.db.query(`UPDATE refunds SET amount_cents = 1900 WHERE id = $1`, [mismatched.id]);
    await stack.db.query(`UPDATE charges SET refund_committed_cents = refund_committed_cents - 100 WHERE id = $1`, [mismatch.id]);
    planted.mismatchProviderRefund = stack.sim.refunds({ refundAttemptId: mismatched.attempts[0].id })[0].id;
    stack.sim.setFaults({ rules: [] });
  });
  afterAll(async () => stack.close());

  it('records each refund divergence by kind, settles the unknown refund and never rewrites the failed one', async () => {
    const run = await reconcile(stack, today, 'api');
    expect(run.divergences).toMatchObject({ refund_provider_only: 2, refund_missing_at_provider: 1, refund_amount_mismatch: 1 });
    const found = await divergencesOf(run.id);
    const ids = (kind: string) => found.filter((d) => d.kind === kind).map((d) => (kind === 'refund_missing_at_provider' ? d.attemptId : d.providerChargeId)).sort();
    expect(ids('refund_provider_only')).toEqual([planted.foreignRefundId, planted.failedProviderRefund].sort());
    expect(ids('refund_missing_at_provider')).toEqual([planted.missingAttempt]);
    expect(ids('refund_amount_mismatch')).toEqual([planted.mismatchProviderRefund]);
    expect(found.find((d) => d.providerChargeId === planted.foreignRefundId)).toMatchObject({ chargeId: planted.foreignRefundCharge, amountCents: 700, attemptId: null });
    expect(found.find((d) => d.providerChargeId === planted.failedProviderRefund)).toMatchObject({ chargeId: planted.failedCharge, attemptId: planted.failedAttempt });

    // A refund line is written when the refund is created, not when it succeeds (a failure reverses it later): the
    // unknown refund only learns its refund id, for the resolver to retrieve; the failed one stays failed, before a person.
    const [taught] = await stack.db.query(`SELECT status, provider_ref FROM attempts WHERE id = $1`, [planted.unknownAttempt]);
    expect(taught).toEqual({ status: 'unknown', provider_ref: stack.sim.refunds({ refundAttemptId: planted.unknownAttempt })[0].id });
    expect(run.settled).toBe(0);
    expect(await transitionsOf(stack, planted.failedAttempt)).toEqual(['new→pending:submit', 'pending→failed:submit']);
    const items = await stack.db.query(`SELECT state FROM review_items WHERE attempt_id = $1`, [planted.failedAttempt]);
    expect(items).toEqual([{ state: 'open' }]);

    // A second run of the day changes nothing.
    const again = await reconcile(stack, today, 'api');
    expect(again).toMatchObject({ settled: 0, divergences: { refund_provider_only: 2, refund_missing_at_provider: 1, refund_amount_mismatch: 1 } });
    expect((await divergencesOf(again.id)).map((d) => d.providerChargeId).sort()).toEqual(found.map((d) => d.providerChargeId).sort());
  });

  it('the refund report file finds the same refund divergences', async () => {
    const run = await reconcile(stack, today, 'report');
    expect(run.divergences).toMatchObject({ refund_provider_only: 2, refund_missing_at_provider: 1, refund_amount_mismatch: 1 });
  });

  it('what the provider refunded without us caps what may still be refunded', async () => {
    const over = await postRefund(stack, planted.foreignRefundCharge, { amountCents: 4990 - 700 + 1 });
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(over.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 4290 } });
    // Finance acknowledging the divergence does not bring the 700 back: the cap stays.
    const [foreignDivergence] = await stack.db.query(`SELECT id FROM reconciliation_divergences WHERE provider_charge_id = $1`, [planted.foreignRefundId]);
    expect((await stack.http.post(`/reconciliation/divergences/${foreignDivergence.id}/ack`).set(stack.auth('admin')).send({ note: 'dashboard refund, seen' })).status).toBe(200);
    expect((await postRefund(stack, planted.foreignRefundCharge, { amountCents: 4990 - 700 + 1 })).status).toBe(422);
    expect((await refund(stack, planted.foreignRefundCharge, 4290)).status).toBe('succeeded');
    // The provider refunded 2000 where we recorded 1900: the 100 beyond ours is gone too (4990 − 1900 − 100).
    const beyond = await postRefund(stack, planted.mismatchCharge, { amountCents: 2991 });
    expect(beyond.status, JSON.stringify(beyond.body)).toBe(422);
    expect(beyond.body.details).toMatchObject({ refundableCents: 2990 });
    // The refund we recorded as failed was executed: nothing of that charge is left to refund.
    const none = await postRefund(stack, planted.failedCharge, { amountCents: 1 });
    expect(none.status, JSON.stringify(none.body)).toBe(422);
    expect(none.body.details).toMatchObject({ refundableCents: 0 });
  });
});
