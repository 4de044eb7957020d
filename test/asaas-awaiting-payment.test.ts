import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolutionQueueFor } from '@app/queues';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const TZ = 'America/Sao_Paulo';

/** A calendar day `offset` days from today in the business's time zone, as YYYY-MM-DD. */
function dayFromToday(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

/**
 * Issue 24, hole 1: an Asaas boleto or Pix that was created and waits for its payer is awaiting payment, not
 * unknown. Real resolver, PostgreSQL, Redis and the Asaas simulator over HTTP.
 */
describe('Asaas awaiting payment', () => {
  let stack: TestStack;
  let resolver: UnknownAttemptResolver;
  beforeAll(async () => {
    stack = await startTestStack({ resolution: true, env: { RESOLUTION_MAX_TRIES: '2', ASAAS_OVERDUE_GRACE_DAYS: '1', RECONCILIATION_TZ: TZ } });
    resolver = stack.app.get(UnknownAttemptResolver);
  });
  afterAll(async () => stack.close());
  beforeEach(() => {
    stack.sim.setFaults({});
    stack.sim.configure({ asaasWebhook: { url: null } });
  });

  async function awaitingBoleto(dueDate: string, billingType = 'BOLETO') {
    const body = ASAAS_PROFILE.chargeBody({ billingType, dueDate });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0]).toMatchObject({ status: 'unknown', providerChargeId: expect.stringMatching(/^pay_/) });
    return { charge, attempt: attempts[0], customerId: body.customerId as string };
  }

  const attemptRow = async (id: string) =>
    (await stack.db.query(`SELECT status, resolution_tries, awaiting_payment_until, resolved_by FROM attempts WHERE id = $1`, [id]))[0];
  const openItems = (id: string) => stack.db.query<unknown[]>(`SELECT reason FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`, [id]);

  it('a boleto before its due date counts no tries, opens no review item, and is checked at due date + grace', async () => {
    const dueDate = dayFromToday(5);
    const { charge, attempt } = await awaitingBoleto(dueDate);
    // Twice the tries that would open a review item for an unknown.
    for (let i = 0; i < 4; i += 1) expect((await resolver.resolve(attempt.id))?.action).toBe('await_payment');

    const row = await attemptRow(attempt.id);
    expect(row).toMatchObject({ status: 'unknown', resolution_tries: 0 });
    expect(await openItems(attempt.id)).toEqual([]);
    // The end of the grace day in the business's time zone: due date + 1 day of grace, then midnight.
    const [{ deadline }] = await stack.db.query(`SELECT (($1::date + 2)::timestamp AT TIME ZONE $2) AS deadline`, [dueDate, TZ]);
    expect(row.awaiting_payment_until.toISOString()).toBe(deadline.toISOString());
    const queue = stack.app.get<Queue>(getQueueToken(resolutionQueueFor('asaas')), { strict: false });
    const job = await queue.getJob(`resolve:${attempt.id}:${Math.floor(deadline.getTime() / 1000)}`);
    expect(job, 'the check scheduled for the deadline').toBeTruthy();
    expect(job!.opts.delay).toBeGreaterThan(deadline.getTime() - Date.now() - 60_000);
    // The sweeper wakes no awaiting attempt before its deadline (no query every sweep for days): with the submit's
    // first reminder gone (no worker runs here), it recreates none.
    await (await queue.getJob(`resolve:${attempt.id}:0`))?.remove();
    await stack.app.get(OpenAttemptSweeper).sweep();
    expect(await queue.getJob(`resolve:${attempt.id}:0`)).toBeNull();
    expect((await getCharge(stack, charge.id)).status).toBe('processing');

    // Asaas's own calendar past the due date: the payment reads OVERDUE, and the attempt still awaits its deadline.
    stack.sim.configure({ asaasClockOffsetDays: 6 });
    try {
      expect(stack.sim.asaasPayments({ externalReference: attempt.id })[0].status).toBe('OVERDUE');
      expect((await resolver.resolve(attempt.id))?.action).toBe('await_payment');
      expect(await attemptRow(attempt.id)).toMatchObject({ status: 'unknown', resolution_tries: 0 });
    } finally {
      stack.sim.configure({ asaasClockOffsetDays: 0 });
    }
  });

  it('past due date + grace, an unpaid boleto is cancelled at Asaas and its attempt failed on the provider word; a late payment is a late capture', async () => {
    const { charge, attempt } = await awaitingBoleto(dayFromToday(-2));
    const [payment] = stack.sim.asaasPayments({ externalReference: attempt.id });
    expect(payment.status).toBe('OVERDUE');

    expect((await resolver.resolve(attempt.id))?.action).toBe('await_payment');
    const [cancelled] = stack.sim.asaasPayments({ externalReference: attempt.id });
    expect(cancelled.deleted).toBe(true);
    expect(stack.sim.stats().asaas.requests.deletes).toBe(1);
    const row = await attemptRow(attempt.id);
    expect(row).toMatchObject({ status: 'failed', resolved_by: 'resolver' });
    expect(await transitionsOf(stack, attempt.id)).toContain('unknown→failed:resolver');
    const [evidence] = await stack.db.query(`SELECT detail FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'failed'`, [attempt.id]);
    expect(evidence.detail).toMatchObject({ reason: 'unpaid_after_due_date', providerChargeId: payment.id, providerStatus: 'OVERDUE', dueDate: payment.dueDate, cancel: { deleted: true, id: payment.id } });
    expect((await getCharge(stack, charge.id)).status).toBe('failed');

    // Paid anyway (a payment in flight when it was removed): the late-capture path records it.
    stack.sim.configure({ asaasWebhook: { url: `${stack.baseUrl}/webhooks/asaas` } });
    stack.sim.setAsaasPaymentStatus(payment.id, 'RECEIVED');
    await stack.sim.webhooksIdle();
    const paid = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the late capture');
    expect(paid.capturedBy).toEqual({ attemptId: attempt.id, providerChargeId: payment.id, late: true });
    expect(paid.attempts[0].status).toBe('failed');
  });

  it('a cancel Asaas refuses fails nothing; a payment found paid on the next check is recorded as the success', async () => {
    const { charge, attempt, customerId } = await awaitingBoleto(dayFromToday(-3), 'PIX');
    const [payment] = stack.sim.asaasPayments({ externalReference: attempt.id });
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId } }] });
    expect((await resolver.resolve(attempt.id))?.action).toBe('await_payment');
    expect(stack.sim.stats().faultsInjected['429']).toBeGreaterThanOrEqual(1);
    expect(stack.sim.asaasPayments({ externalReference: attempt.id })[0].deleted).toBe(false);
    expect((await attemptRow(attempt.id)).status).toBe('unknown');

    stack.sim.setAsaasPaymentStatus(payment.id, 'RECEIVED');
    expect((await resolver.resolve(attempt.id))?.action).toBe('apply');
    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts[0]).toMatchObject({ status: 'succeeded', providerChargeId: payment.id });
  });

  it('a card charge sent without a card token is an invoice awaiting its payer, like a boleto, until paid', async () => {
    // Issue 35: without card data Asaas creates a payment the customer still pays on invoiceUrl (PENDING); read as
    // a card charged at once, it would have counted as money taken.
    const charge = await createCharge(stack, ASAAS_PROFILE.chargeBody({ dueDate: dayFromToday(3), paymentMethodId: undefined, customerIp: undefined }));
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0]).toMatchObject({ status: 'unknown', providerChargeId: expect.stringMatching(/^pay_/) });
    const [payment] = stack.sim.asaasPayments({ externalReference: attempts[0].id });
    expect(payment).toMatchObject({ billingType: 'CREDIT_CARD', status: 'PENDING', paymentDate: null });
    expect((await resolver.resolve(attempts[0].id))?.action).toBe('await_payment');
    expect(await attemptRow(attempts[0].id)).toMatchObject({ status: 'unknown', resolution_tries: 0 });
    expect(await openItems(attempts[0].id)).toEqual([]);

    stack.sim.setAsaasPaymentStatus(payment.id, 'CONFIRMED');
    expect((await resolver.resolve(attempts[0].id))?.action).toBe('apply');
    expect((await getCharge(stack, charge.id)).status).toBe('succeeded');
  });

  it('a Pix whose create answered 500 is found by reference and awaits its payer (due today when none was given)', async () => {
    const body = ASAAS_PROFILE.chargeBody({ billingType: 'PIX' });
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: body.customerId as string } }] });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    // A Pix with no due date given falls due today: awaiting, not unknown.
    expect((await resolver.resolve(attempts[0].id))?.action).toBe('await_payment');
    expect(await openItems(attempts[0].id)).toEqual([]);
  });
});
