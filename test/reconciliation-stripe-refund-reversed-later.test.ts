import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '@app/common';
import { reconcile } from './support/reconciliation.js';
import { postRefund, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 35: a refund line on one day and its reversal (`refund_failure`) on a later one. A refund we recorded as
 * failed whose line Stripe wrote anyway is a provider-only refund on its day, lowering what the charge may still
 * refund; when a later statement shows it reversed, no money moved, as when both lines share a day. Before, the
 * divergence stayed and kept lowering the cap, and the charge's provider refunded amount still counted the refund.
 * Own database and simulator.
 */
describe('a Stripe refund reversed on a later day than its refund line', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const yesterday = addDays(today, -1);
  const noonOf = (day: string) => Math.floor(Date.parse(`${day}T12:00:00Z`) / 1000);
  let chargeId: string;
  let providerRefundId: string;

  const providerRefunded = async () =>
    Number((await stack.db.query(`SELECT provider_refunded_cents AS c FROM charges WHERE id = $1`, [chargeId]))[0].c);
  const divergence = async () =>
    stack.db.query<Array<{ kind: string; status: string; amount_cents: string; note: string | null; detail: Record<string, unknown> }>>(
      `SELECT kind, status, amount_cents, note, detail FROM reconciliation_divergences WHERE provider_charge_id = $1`,
      [providerRefundId],
    );

  beforeAll(async () => {
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: await scratchDatabase('reconciliation_refund_reversed_later'), RECONCILIATION_TZ: 'UTC' } });
    const customerId = `cus_rev${Date.now()}`;
    const charge = await succeededCharge(stack, { customerId });
    chargeId = charge.id;
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const refused = await refund(stack, charge.id, 2000);
    expect(refused.status).toBe('failed');
    stack.sim.setFaults({ rules: [] });
    providerRefundId = stack.sim.refunds({ refundAttemptId: refused.attempts[0].id })[0].id;
    // Stripe wrote the refund line yesterday, then reversed it today.
    stack.sim.setRefundStatus(providerRefundId, 'succeeded', noonOf(yesterday));
  });
  afterAll(async () => stack?.close());

  it("the refund line's day records a provider-only refund that lowers the cap", async () => {
    await reconcile(stack, yesterday);
    const [found] = await divergence();
    expect(found).toMatchObject({ kind: 'refund_provider_only', status: 'open', amount_cents: '2000' });
    expect(await providerRefunded()).toBe(2000);
    const tooMuch = await postRefund(stack, chargeId, { amountCents: 4990 });
    expect(tooMuch.status, JSON.stringify(tooMuch.body)).toBe(422);
  });

  it("the reversal's day takes it back: the divergence closes as reversed, the cap and the provider's total are whole again", async () => {
    const reversed = stack.sim.setRefundStatus(providerRefundId, 'failed', Math.floor(Date.now() / 1000));
    expect(reversed.failure_balance_transaction).toMatch(/^txn_/);
    const run = await reconcile(stack, today);
    expect(Object.values(run.divergences).every((n) => n === 0), JSON.stringify(run.divergences)).toBe(true);
    const [found] = await divergence();
    expect(found).toMatchObject({
      kind: 'refund_provider_only',
      status: 'acknowledged',
      note: 'reversed at the provider (refund_failure) on a later statement',
      detail: { reversedAtProvider: { day: today, lineId: reversed.failure_balance_transaction, amountCents: 2000 } },
    });
    expect(await providerRefunded()).toBe(0);
    // Re-running either day changes nothing.
    await reconcile(stack, yesterday);
    await reconcile(stack, today);
    expect((await divergence()).map((d) => d.status)).toEqual(['acknowledged']);
    expect(await providerRefunded()).toBe(0);
    const whole = await refund(stack, chargeId, 4990);
    expect(whole.status).toBe('succeeded');
  });

  it("the reversal's day reconciled first: the refund's day, run later, sees the reversal kept and records nothing", async () => {
    const customerId = `cus_rev2${Date.now()}`;
    const charge = await succeededCharge(stack, { customerId });
    stack.sim.setFaults({ rules: [{ fault: 'decline', match: { customerId } }] });
    const refused = await refund(stack, charge.id, 1500);
    stack.sim.setFaults({ rules: [] });
    const refundId = stack.sim.refunds({ refundAttemptId: refused.attempts[0].id })[0].id;
    const twoDaysAgo = addDays(today, -2);
    stack.sim.setRefundStatus(refundId, 'succeeded', noonOf(twoDaysAgo));
    stack.sim.setRefundStatus(refundId, 'failed', noonOf(yesterday));
    await reconcile(stack, yesterday);
    await reconcile(stack, twoDaysAgo);
    expect(await stack.db.query(`SELECT kind FROM reconciliation_divergences WHERE provider_charge_id = $1`, [refundId])).toEqual([]);
    expect(await stack.db.query(`SELECT id FROM review_items WHERE attempt_id = $1`, [refused.attempts[0].id])).toEqual([]);
    const [row] = await stack.db.query(`SELECT provider_refunded_cents AS c FROM charges WHERE id = $1`, [charge.id]);
    expect(Number(row.c)).toBe(0);
    expect((await refund(stack, charge.id, 4990)).status).toBe('succeeded');
  });
});
