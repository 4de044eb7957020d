import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderFactApplier } from '@app/attempts';
import { signStripePayload } from '@app/gateways';
import { getCharge } from './support/charges.js';
import { getRefund, postRefund, refund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 36, item 7: a refund we had failed that the provider reports succeeded later takes its amount back in the
 * cap in the commit that records the fact (as a late capture does), not after the nightly run. Real api + worker,
 * PostgreSQL, Redis and the simulator over HTTP, its webhooks delivered to the api.
 */
describe('a late refund success and the refund cap', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
  });
  afterAll(async () => stack.close());
  beforeEach(() => {
    stack.sim.setFaults({});
    stack.sim.configure({ webhook: { url: null } });
  });

  /** A charge of 1 000 and a refund of 400 the simulator declined: failed by us, its 400 given back. */
  async function declinedRefundOf400() {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId, amountCents: 1000 });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const declined = await refund(stack, charge.id, 400);
    expect(declined.status).toBe('failed');
    stack.sim.setFaults({});
    const [atProvider] = stack.sim.refunds({ refundAttemptId: declined.attempts[0].id });
    return { customerId, charge, declined, providerRefundId: atProvider.id };
  }

  /** The provider's late success for the declined refund, for `amountCents`, as its webhook would apply it. */
  async function providerRefundedLate(attemptId: string, providerRefundId: string, amountCents: number) {
    await stack.db.transaction((em) =>
      stack.app.get(ProviderFactApplier).apply(
        em,
        attemptId,
        { outcome: 'succeeded', providerChargeId: providerRefundId, amountCents, currency: 'usd' },
        { cause: 'webhook', actor: 'webhook:stripe', evidence: { test: 'late refund' } },
      ),
    );
    const [late] = await stack.db.query(`SELECT late_refund_amount_cents::int AS amount FROM attempts WHERE id = $1`, [attemptId]);
    expect(late).toEqual({ amount: amountCents });
  }

  /** A signed `charge.refunded` for the charge's intent, saying the provider has refunded `amountRefunded` of its 1 000. */
  async function chargeRefunded(paymentIntentId: string, amountRefunded: number) {
    const event = { id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'charge.refunded', created: Math.floor(Date.now() / 1000),
      data: { object: { id: `ch_${paymentIntentId}`, object: 'charge', payment_intent: paymentIntentId, amount: 1000, amount_refunded: amountRefunded, currency: 'usd' } } };
    const raw = JSON.stringify(event);
    const res = await stack.http.post('/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signStripePayload(raw, 'whsec_dev_simulator', Math.floor(Date.now() / 1000))).send(raw);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { duplicate: boolean; disposition: string };
  }

  const itemsOf = (attemptId: string) => stack.db.query<Array<{ reason: string; state: string }>>(`SELECT reason, state FROM review_items WHERE attempt_id = $1`, [attemptId]);

  it('a declined refund the provider reports succeeded (webhook) limits the next refund to 600 at once: 1 000 is 422, 600 is sent', async () => {
    const { charge, declined, providerRefundId } = await declinedRefundOf400();
    stack.sim.configure({ webhook: { url: `${stack.baseUrl}/webhooks/stripe`, duplicates: 1, dropRate: 0 } });
    stack.sim.setRefundStatus(providerRefundId, 'succeeded');
    await stack.sim.webhooksIdle();
    const seen = await waitFor(() => getCharge(stack, charge.id), (v) => v.refundedCents === 400, 5000, 'the provider refunded total');
    expect(seen.refundedCents).toBe(400);
    const items = await stack.db.query(`SELECT reason, state FROM review_items WHERE attempt_id = $1`, [declined.attempts[0].id]);
    expect(items).toEqual([{ reason: 'provider_success_after_failure', state: 'open' }]);
    const [attempt] = await stack.db.query(`SELECT status, late_refund_provider_ref FROM attempts WHERE id = $1`, [declined.attempts[0].id]);
    expect(attempt).toEqual({ status: 'failed', late_refund_provider_ref: providerRefundId });
    // The refund is made: it reads succeeded (the attempt's failed untouched) and its merchant was told once.
    const view = await getRefund(stack, declined.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts[0]).toMatchObject({ status: 'failed', lateProviderRefundId: providerRefundId, lateRefundedCents: 400 });
    const events = await stack.db.query(`SELECT type FROM events WHERE object_type = 'refund' AND object_id = $1 ORDER BY seq`, [declined.id]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['refund.failed', 'refund.succeeded']);

    const sentBefore = stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! }).length;
    const tooMuch = await postRefund(stack, charge.id, { amountCents: 1000 });
    expect(tooMuch.status, JSON.stringify(tooMuch.body)).toBe(422);
    expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 600, requestedCents: 1000 } });
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! })).toHaveLength(sentBefore);

    const rest = await postRefund(stack, charge.id, { amountCents: 600 });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body.status).toBe('succeeded');
    const atProvider = stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! }).filter((r) => r.status === 'succeeded');
    expect(atProvider.map((r) => r.amount).sort()).toEqual([400, 600]);
    expect((await postRefund(stack, charge.id, { amountCents: 1 })).status).toBe(422);
    // The late success is recorded once: the redelivered webhooks changed nothing more, and the refund sends no retry.
    expect((await stack.http.post(`/refunds/${declined.id}/submit`).set(stack.auth('merchant'))).body.attempts).toHaveLength(1);
    expect((await getRefund(stack, declined.id)).attempts[0].status).toBe('failed');
  });

  it('a refund opened while the late success is being recorded waits for the charge lock and then sees the cap', async () => {
    const { charge, declined, providerRefundId } = await declinedRefundOf400();
    const runner = stack.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let refundStatus: number | null = null;
    try {
      await stack.app.get(ProviderFactApplier).apply(
        runner.manager,
        declined.attempts[0].id,
        { outcome: 'succeeded', providerChargeId: providerRefundId, amountCents: 400, currency: 'usd' },
        { cause: 'webhook', actor: 'webhook:stripe', evidence: { test: 'interleaving' } },
      );
      // The fact is recorded but not committed: the refund must wait on the same charge row lock.
      const pending = postRefund(stack, charge.id, { amountCents: 1000 }).then((res) => {
        refundStatus = res.status;
        return res;
      });
      await waitFor(
        () => stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`),
        (rows) => rows[0].n > 0,
        5000,
        'the refund to wait for the charge lock',
      );
      expect(refundStatus).toBeNull();
      await runner.commitTransaction();
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 600 } });
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! }).filter((r) => r.amount === 1000)).toEqual([]);
  });
  it('a late success for another amount than we asked counts what the provider refunded, and a person is asked about the difference', async () => {
    const { charge, declined, providerRefundId } = await declinedRefundOf400();
    await stack.db.transaction((em) =>
      stack.app.get(ProviderFactApplier).apply(
        em,
        declined.attempts[0].id,
        { outcome: 'succeeded', providerChargeId: providerRefundId, amountCents: 300, currency: 'usd' },
        { cause: 'webhook', actor: 'webhook:stripe', evidence: { test: 'other amount' } },
      ),
    );
    const [attempt] = await stack.db.query(`SELECT status, late_refund_provider_ref, late_refund_amount_cents FROM attempts WHERE id = $1`, [declined.attempts[0].id]);
    expect(attempt).toEqual({ status: 'failed', late_refund_provider_ref: providerRefundId, late_refund_amount_cents: '300' });
    const [item] = await stack.db.query(`SELECT reason, state, evidence->'findings'->'lateRefund' AS late FROM review_items WHERE attempt_id = $1`, [declined.attempts[0].id]);
    expect(item).toMatchObject({ reason: 'amount_mismatch', state: 'open', late: { providerRefundId, amountCents: 300, requestedCents: 400, countedInCap: true } });
    const tooMuch = await postRefund(stack, charge.id, { amountCents: 701 });
    expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 700 } });
  });

  it("a provider refunded total that is the late refund's own amount is explained by it: no review item for the charge", async () => {
    const { charge, declined, providerRefundId } = await declinedRefundOf400();
    await providerRefundedLate(declined.attempts[0].id, providerRefundId, 400);
    expect(await chargeRefunded(charge.attempts[0].providerChargeId!, 400)).toEqual({ duplicate: false, disposition: 'applied' });
    expect((await getCharge(stack, charge.id)).refundedCents).toBe(400);
    expect(await itemsOf(charge.attempts[0].id)).toEqual([]);
  });

  it('a provider refunded total beyond what the late refund moved still reaches a person, by the amount the provider refunded, not ours', async () => {
    const { charge, declined, providerRefundId } = await declinedRefundOf400();
    // The provider refunded 300 for our 400: the cap counts 300, and so does the explanation.
    await providerRefundedLate(declined.attempts[0].id, providerRefundId, 300);
    expect(await chargeRefunded(charge.attempts[0].providerChargeId!, 300)).toEqual({ duplicate: false, disposition: 'applied' });
    expect(await itemsOf(charge.attempts[0].id)).toEqual([]);
    expect(await chargeRefunded(charge.attempts[0].providerChargeId!, 400)).toEqual({ duplicate: false, disposition: 'flagged' });
    expect(await itemsOf(charge.attempts[0].id)).toEqual([{ reason: 'provider_refund', state: 'open' }]);
  });

  it('a late refund the provider reversed explains nothing, as the cap counts it: failing another refund then asks a person about the reported total', async () => {
    const { customerId, charge, declined, providerRefundId } = await declinedRefundOf400();
    await providerRefundedLate(declined.attempts[0].id, providerRefundId, 400);
    expect(await chargeRefunded(charge.attempts[0].providerChargeId!, 400)).toEqual({ duplicate: false, disposition: 'applied' });
    // A later statement shows the late refund reversed (its kept refund_failure line), as reconciliation records it.
    const [{ id: runId }] = await stack.db.query(
      `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, executions)
       VALUES (gen_random_uuid(), 'stripe', current_date, 'manual', 'api', 'succeeded', 'test', 1) RETURNING id`,
    );
    await stack.db.query(
      `INSERT INTO reconciliation_money_movements (provider, line_id, kind, provider_charge_id, reference, charge_id, amount_cents, currency, occurred_at, run_id)
       VALUES ('stripe', $1, 'refund_failure', $2, $3, $4, 400, 'usd', now(), $5)`,
      [`txn_${randomUUID()}`, charge.attempts[0].providerChargeId, providerRefundId, charge.id, runId],
    );
    // The cap gives the reversed 400 back: all 1 000 is refundable again.
    expect((await postRefund(stack, charge.id, { amountCents: 1001 })).body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 1000 } });

    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const other = await refund(stack, charge.id, 300);
    expect(other.attempts[0].status).toBe('failed');
    // The provider's 400 is no longer explained by anything of ours the cap counts: a person looks.
    const items = await stack.db.query(`SELECT reason, state, evidence->'findings' AS findings FROM review_items WHERE attempt_id = $1`, [other.attempts[0].id]);
    expect(items).toEqual([{ reason: 'provider_refund_unexplained', state: 'open', findings: { reportedRefundedCents: 400, explainedCents: 0 } }]);
  });
});
