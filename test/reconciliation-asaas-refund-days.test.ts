import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '@app/reconciliation';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { reconcile } from './support/reconciliation.js';
import { getRefund, postRefund, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Asaas refunds at the day's edge: a refund sits PENDING for a while, and its extrato entry (the only thing that
 * names its payment) may be dated a day or more after the refund's `dateCreated`, which is the day the refund is
 * reconciled on. The simulator holds refunds PENDING and books them late on request. Whatever day's run sees a
 * refund, it is counted once: a refund we did not ask for lowers the charge's cap once, under one id.
 * Own database and simulator, so no other file's refunds are in these days.
 */
describe('Asaas refunds booked on another day than they were made', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const asaasCharge = () => succeededCharge(stack, ASAAS_PROFILE.chargeBody());
  const run = (day: string) => reconcile(stack, day, 'api', 'asaas');
  const divergencesOf = (chargeId: string) =>
    stack.db.query<Array<{ kind: string; subject: string; attempt_id: string | null; amount_cents: string }>>(
      `SELECT kind, subject, attempt_id, amount_cents FROM reconciliation_divergences WHERE charge_id = $1 ORDER BY kind, subject`,
      [chargeId],
    );
  const refundableOf = async (chargeId: string) => {
    const over = await postRefund(stack, chargeId, { amountCents: 4990 });
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    return (over.body as { details: { refundableCents: number } }).details.refundableCents;
  };
  /** A refund made at Asaas but not by our refund path: a plain refund call, with Asaas's own description by default. */
  const refundAtAsaas = async (paymentId: string, value: number, description = 'Estorno pelo painel') => {
    const res = await fetch(`${stack.sim.apiUrl}/v3/payments/${paymentId}/refund`, {
      method: 'POST',
      headers: { access_token: 'panel', 'Content-Type': 'application/json' },
      body: JSON.stringify({ value, description }),
    });
    expect(res.status).toBe(200);
  };
  const refundInPanel = (paymentId: string, value: number) => refundAtAsaas(paymentId, value);
  const missingOf = async (chargeId: string) => {
    const [row] = await stack.db.query<Array<{ status: string; note: string | null; acknowledged_by: string | null; detail: Record<string, unknown> }>>(
      `SELECT status, note, acknowledged_by, detail FROM reconciliation_divergences WHERE charge_id = $1 AND kind = 'refund_missing_at_provider'`,
      [chargeId],
    );
    return row;
  };
  /** A refund_missing_at_provider closed by the run that first staged the refund's line, which it names. */
  const foundBy = (runId: string, day: string, charge: { attempts: Array<{ providerChargeId: string | null }> }, refundId: string) => ({
    status: 'acknowledged',
    note: 'found on a later statement',
    acknowledged_by: 'reconciliation',
    detail: { refundId, foundLater: [{ runId, day, lineId: expect.stringMatching(new RegExp(`^${charge.attempts[0].providerChargeId}:refund:[0-9a-f-]{36}$`)), amountCents: 1000 }] },
  });
  const succeeded = (refundId: string) => waitFor(() => getRefund(stack, refundId), (r) => r.status === 'succeeded', 15_000, 'the refund to succeed');

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_asaas_refund_days');
    // The worker's resolver learns our PENDING refund turned DONE; no nightly tick, runs are asked for. A run reads
    // only a day that has ended, and Asaas books these refunds up to two days on: reconciliation's clock is three
    // days later, as a finance team asking for these days once all of them are over.
    stack = await startTestStack({
      worker: true,
      reconciliationDaysLater: 3,
      env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', RECONCILIATION_CRON: 'off', RESOLUTION_MAX_TRIES: '40' },
    });
  });
  afterEach(() => stack.sim.configure({ asaasRefundsPending: false, asaasRefundBookingDelayDays: 0, asaasRefundDateCreated: null }));
  afterAll(async () => stack.close());

  it('a panel refund still PENDING on its day and booked two days later lowers the cap once, whichever runs see it', async () => {
    const charge = await asaasCharge();
    const payment = charge.attempts[0].providerChargeId!;
    stack.sim.configure({ asaasRefundsPending: true });
    await refundInPanel(payment, 7);
    await run(today);
    expect(await divergencesOf(charge.id)).toEqual([]);

    stack.sim.settleAsaasRefund(payment, 0, 'DONE', addDays(today, 2));
    await run(addDays(today, 2));
    expect(await divergencesOf(charge.id)).toMatchObject([{ kind: 'refund_provider_only', attempt_id: null, amount_cents: '700' }]);
    expect(await refundableOf(charge.id)).toBe(4990 - 700);

    // Seen again by every run that reads its extrato entry: still one refund, one divergence, one lowering.
    for (const day of [addDays(today, 1), addDays(today, 2), today]) await run(day);
    expect(await divergencesOf(charge.id)).toHaveLength(1);
    expect(await refundableOf(charge.id)).toBe(4990 - 700);
  });

  it('our refunds booked a day or two after their day are missing at its run, then closed by the run that finds them', async () => {
    stack.sim.configure({ asaasRefundBookingDelayDays: 2 });
    const late = await asaasCharge();
    const lateRefund = await refund(stack, late.id, 1000);
    expect(lateRefund.status).toBe('succeeded');

    stack.sim.configure({ asaasRefundsPending: true });
    const held = await asaasCharge();
    const heldRefund = await refund(stack, held.id, 1000);
    expect(heldRefund.status).not.toBe('succeeded');
    stack.sim.settleAsaasRefund(held.attempts[0].providerChargeId!, 0, 'DONE', addDays(today, 1));
    await succeeded(heldRefund.id);

    // The day's extrato shows neither: the run of the day cannot tell late from lost.
    const night = await run(today);
    expect(night.divergences).toMatchObject({ refund_missing_at_provider: 2, refund_provider_only: 0, refund_amount_mismatch: 0 });
    const nextDay = await run(addDays(today, 1));
    expect(await missingOf(held.id)).toMatchObject(foundBy(nextDay.id, addDays(today, 1), held, heldRefund.id));
    expect(await missingOf(late.id)).toMatchObject({ status: 'open', note: null });
    const dayAfter = await run(addDays(today, 2));
    expect(await missingOf(late.id)).toMatchObject(foundBy(dayAfter.id, addDays(today, 2), late, lateRefund.id));

    // Run again, the day still misses them and a later day sees them again: closed, the first sighting kept, once.
    for (const day of [today, addDays(today, 2), addDays(today, 1)]) await run(day);
    expect(await missingOf(held.id)).toMatchObject(foundBy(nextDay.id, addDays(today, 1), held, heldRefund.id));
    expect(await missingOf(late.id)).toMatchObject(foundBy(dayAfter.id, addDays(today, 2), late, lateRefund.id));
    expect([...(await divergencesOf(late.id)), ...(await divergencesOf(held.id))].map((d) => d.kind)).toEqual(['refund_missing_at_provider', 'refund_missing_at_provider']);
    expect(await refundableOf(late.id)).toBe(4990 - 1000);
  });

  it('a refund found later stays open for a person when the charge was refunded again after it looked missing', async () => {
    stack.sim.configure({ asaasRefundBookingDelayDays: 2 });
    const charge = await asaasCharge();
    const first = await refund(stack, charge.id, 1000);
    expect(first.status).toBe('succeeded');
    await run(today);
    expect(await missingOf(charge.id)).toMatchObject({ status: 'open' });

    // Someone refunds again, the first looking lost; then Asaas books the first.
    stack.sim.configure({ asaasRefundBookingDelayDays: 0 });
    expect((await refund(stack, charge.id, 1000)).status).toBe('succeeded');
    const booked = await run(addDays(today, 2));
    const missing = await missingOf(charge.id);
    expect(missing).toMatchObject({ status: 'open', note: null, acknowledged_by: null });
    expect(missing.detail).toMatchObject({ refundId: first.id, foundLater: [{ runId: booked.id, amountCents: 1000 }] });
  });

  it('a second DONE refund carrying our attempt is a refund we did not make: a divergence, and the cap drops by both', async () => {
    const charge = await asaasCharge();
    const payment = charge.attempts[0].providerChargeId!;
    const ours = await refund(stack, charge.id, 1000);
    expect(ours.status).toBe('succeeded');
    const [{ id: attemptId }] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM attempts WHERE refund_id = $1`, [ours.id]);
    // Asaas took our refund twice: a second refund with our description, as a resent body would make.
    await refundAtAsaas(payment, 10, `charge-once refund ${attemptId}`);

    await run(today);
    // Ours matched, not missing; the second one a refund we did not make.
    expect(await divergencesOf(charge.id)).toEqual([{ kind: 'refund_provider_only', subject: `${payment}:refund:${attemptId}:2`, attempt_id: null, amount_cents: '1000' }]);
    expect(await refundableOf(charge.id)).toBe(4990 - 2000);
    const [{ refunded }] = await stack.db.query(`SELECT provider_refunded_cents AS refunded FROM charges WHERE id = $1`, [charge.id]);
    expect(Number(refunded)).toBe(2000);
  });

  it('a panel refund keeps its id when a refund of ours of the same second and value turns DONE later', async () => {
    const charge = await asaasCharge();
    const payment = charge.attempts[0].providerChargeId!;
    // Asaas writes seconds: ours (listed first, PENDING) and the panel's share their dateCreated and value.
    stack.sim.configure({ asaasRefundDateCreated: `${today} 12:00:00`, asaasRefundsPending: true });
    const ours = await refund(stack, charge.id, 700);
    stack.sim.configure({ asaasRefundsPending: false });
    await refundInPanel(payment, 7);
    await run(today);
    const [first] = await divergencesOf(charge.id);
    expect(first).toMatchObject({ kind: 'refund_provider_only', amount_cents: '700' });

    stack.sim.settleAsaasRefund(payment, 0, 'DONE', today);
    await succeeded(ours.id);
    await run(today);
    expect(await divergencesOf(charge.id)).toEqual([first]);
    // Ours and the panel's, each once: 4990 − 700 − 700.
    expect(await refundableOf(charge.id)).toBe(4990 - 1400);
    const [{ refunded }] = await stack.db.query(`SELECT provider_refunded_cents AS refunded FROM charges WHERE id = $1`, [charge.id]);
    expect(Number(refunded)).toBe(1400);
  });

  it('our succeeded refund Asaas cancelled on a later day is put to a person, once, and the attempt stays succeeded', async () => {
    const charge = await asaasCharge();
    const payment = charge.attempts[0].providerChargeId!;
    const ours = await refund(stack, charge.id, 1000);
    expect(ours.status).toBe('succeeded');
    const [{ id: attemptId }] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM attempts WHERE refund_id = $1`, [ours.id]);
    await run(today);
    expect(await divergencesOf(charge.id)).toEqual([]);

    // Asaas cancels it the next day: the customer never got the money, its extrato credits it back.
    const cancelledOn = addDays(today, 1);
    stack.sim.settleAsaasRefund(payment, 0, 'CANCELLED', cancelledOn);
    const nextDay = await run(cancelledOn);
    const subject = `${payment}:refund:${attemptId}`;
    const cancelledOf = () =>
      stack.db.query<Array<{ subject: string; attempt_id: string; amount_cents: string; status: string; detail: Record<string, unknown> }>>(
        `SELECT subject, attempt_id, amount_cents, status, detail FROM reconciliation_divergences WHERE charge_id = $1 AND kind = 'refund_cancelled_at_provider'`,
        [charge.id],
      );
    expect(nextDay.divergences).toMatchObject({ refund_cancelled_at_provider: 1 });
    expect(await cancelledOf()).toMatchObject([
      { subject, attempt_id: attemptId, amount_cents: '1000', status: 'open', detail: { refundId: ours.id, providerStatus: 'CANCELLED', cancelledAtProvider: true, attemptStatus: 'succeeded', providerAmountCents: 1000 } },
    ]);
    // Never rewritten: a person decides what the cancelled refund means.
    const [attempt] = await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attemptId]);
    expect(attempt.status).toBe('succeeded');

    // Every run that reads the payment sees it again: still one divergence.
    for (const day of [cancelledOn, today]) await run(day);
    expect(await cancelledOf()).toHaveLength(1);
  });
});
