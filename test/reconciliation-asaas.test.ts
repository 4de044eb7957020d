import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '@app/reconciliation';
import { createCharge, submit, transitionsOf } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { waitForRun } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 14: reconciliation learns Asaas. Its statement is the list of payments received in the day
 * (`paymentDate[ge]/[le]`, paged); a provider with no idempotency key shows a resend that created twice as
 * a second payment under one `externalReference`. Own database and simulator, so no other file's charges.
 */
describe('nightly reconciliation of Asaas payments', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  let planted: { matched: string; amountMismatch: string; missingAttempt: string; providerOnly: string; duplicate: string; settledAttempt: string; settledPayment: string };

  const succeeded = async (overrides: Record<string, unknown> = {}) => {
    const view = await submit(stack, (await createCharge(stack, ASAAS_PROFILE.chargeBody(overrides))).id);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    return { chargeId: view.id, attempt: view.attempts[0] };
  };
  const run = async (body: Record<string, unknown>) => {
    const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'asaas', date: today, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return waitForRun(stack, (res.body as { id: string }).id);
  };
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}&limit=100`).set(stack.auth('admin'));
    const items = res.body.items as Array<{ kind: string; providerChargeId: string | null; attemptId: string | null }>;
    const ids = (kind: string) => items.filter((d) => d.kind === kind).map((d) => (kind === 'missing_at_provider' ? d.attemptId : d.providerChargeId)).sort();
    return { provider_only: ids('provider_only'), duplicate_charge: ids('duplicate_charge'), missing_at_provider: ids('missing_at_provider'), amount_mismatch: ids('amount_mismatch') };
  };

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_asaas');
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC' } });
    const matched = await succeeded();
    const amount = await succeeded();
    await stack.db.query(`UPDATE charges SET amount_cents = amount_cents + 100 WHERE id = $1`, [amount.chargeId]);

    // Our success that Asaas never received: edited into our rows.
    const missingCharge = await createCharge(stack, ASAAS_PROFILE.chargeBody());
    const missingAttempt = randomUUID();
    await stack.db.query(
      `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by)
       VALUES ($1, $2, $3, 'asaas', 'succeeded', $4, '', repeat('0', 64), 1, now(), 'submit')`,
      [missingAttempt, missingCharge.id, randomUUID(), `pay_never${randomUUID().slice(0, 6)}`],
    );

    const [providerOnly] = stack.sim.plantAsaasPayments([{ amountCents: 700, paymentDate: today }]);
    // A resend that Asaas took as a second payment: same reference, its own id.
    const duplicated = await succeeded();
    const [second] = stack.sim.plantAsaasPayments([{ amountCents: 4990, paymentDate: today, externalReference: duplicated.attempt.id }]);

    // The response was lost after Asaas created and charged the payment: unknown, and the statement settles it.
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId } }] });
    const lost = await submit(stack, (await createCharge(stack, ASAAS_PROFILE.chargeBody({ customerId }))).id);
    expect(lost.attempts[0].status).toBe('unknown');
    stack.sim.setFaults({ rules: [] });

    planted = {
      matched: matched.attempt.providerChargeId!,
      amountMismatch: amount.attempt.providerChargeId!,
      missingAttempt,
      providerOnly: providerOnly.id,
      duplicate: second.id,
      settledAttempt: lost.attempts[0].id,
      settledPayment: stack.sim.asaasPayments({ externalReference: lost.attempts[0].id })[0].id,
    };
  });
  afterAll(async () => stack.close());

  it('reports exactly the planted divergences, settles the unknown attempt and proposes refunds', async () => {
    const first = await run({ source: 'api' });
    // matched, amount mismatch, duplicated's first, its second, provider-only, settled: six payments received today.
    expect(first).toMatchObject({ linesRead: 6, matched: 3, settled: 1, divergences: { provider_only: 1, duplicate_charge: 1, missing_at_provider: 1, amount_mismatch: 1 } });
    expect(stack.sim.stats().asaas.requests.lists).toBeGreaterThanOrEqual(1);
    expect(await divergencesOf(first.id)).toEqual({
      provider_only: [planted.providerOnly],
      duplicate_charge: [planted.duplicate],
      missing_at_provider: [planted.missingAttempt],
      amount_mismatch: [planted.amountMismatch],
    });
    const [attempt] = await stack.db.query(`SELECT status, provider_ref, resolved_by FROM attempts WHERE id = $1`, [planted.settledAttempt]);
    expect(attempt).toEqual({ status: 'succeeded', provider_ref: planted.settledPayment, resolved_by: 'reconciliation' });
    expect(await transitionsOf(stack, planted.settledAttempt)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:reconciliation']);
    const proposals = await stack.http.get('/reconciliation/refund-proposals').set(stack.auth('admin'));
    expect(proposals.body.map((p: { provider: string; providerChargeId: string; reason: string; currency: string }) => [p.provider, p.reason, p.providerChargeId, p.currency]).sort()).toEqual(
      [['asaas', 'duplicate_charge', planted.duplicate, 'brl'], ['asaas', 'provider_only', planted.providerOnly, 'brl']].sort(),
    );
  });

  it('a second run of the same day changes nothing; Asaas has no report file to read', async () => {
    const snapshot = () =>
      Promise.all([
        stack.db.query(`SELECT * FROM reconciliation_divergences ORDER BY id`),
        stack.db.query(`SELECT * FROM refund_proposals ORDER BY id`),
        stack.db.query(`SELECT id, status, provider_ref, updated_at FROM attempts ORDER BY id`),
      ]);
    const before = await snapshot();
    const again = await run({ source: 'api' });
    expect(again).toMatchObject({ linesRead: 6, matched: 3, settled: 0, divergences: { provider_only: 1, duplicate_charge: 1, missing_at_provider: 1, amount_mismatch: 1 } });
    expect(await snapshot()).toEqual(before);
    const report = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'asaas', date: today, source: 'report' });
    expect(report.status).toBe(400);
    expect(report.body.code).toBe('statement_unsupported');
  });

  it('a card belongs to the day it was confirmed, not the day Asaas credits it (D+30), even refunded before its credit', async () => {
    // Refunded before its credit: no longer CONFIRMED and never given a paymentDate, yet it took money today.
    const refundedEarly = await succeeded();
    const early = stack.sim.setAsaasPaymentStatus(refundedEarly.attempt.providerChargeId!, 'REFUNDED');
    expect(early).toMatchObject({ status: 'REFUNDED', confirmedDate: today, paymentDate: null });
    const confirmedDay = addDays(today, -30);
    const [card] = stack.sim.plantAsaasPayments([{ amountCents: 1234, paymentDate: today, card: { confirmedDate: confirmedDay } }]);
    expect(card).toMatchObject({ billingType: 'CREDIT_CARD', status: 'RECEIVED', confirmedDate: confirmedDay, paymentDate: today, creditDate: today });
    // Paid today by its paymentDate, yet not a line of today: read by paymentDate alone it was a false provider_only.
    const todays = await run({ source: 'api' });
    expect(todays).toMatchObject({ linesRead: 7, matched: 4, divergences: { provider_only: 1, missing_at_provider: 1 } });
    const found = await divergencesOf(todays.id);
    expect([found.provider_only, found.missing_at_provider]).toEqual([[planted.providerOnly], [planted.missingAttempt]]);
    const then = await run({ source: 'api', date: confirmedDay });
    expect(then).toMatchObject({ linesRead: 1, divergences: { provider_only: 1 } });
    expect((await divergencesOf(then.id)).provider_only).toEqual([card.id]);
  });

  it('a success of 23:59 that Asaas books the next day is missing on its day, then closed by the day that books it', async () => {
    const late = await succeeded();
    const yesterday = addDays(today, -1);
    // Sent a minute before midnight; Asaas dates the payment by the day it confirmed it: today.
    await stack.db.query(`UPDATE attempts SET created_at = $2 WHERE id = $1`, [late.attempt.id, `${yesterday}T23:59:00Z`]);
    const missing = async () =>
      stack.db.query<Array<{ status: string; note: string | null; detail: { foundLater?: Array<{ day: string; amountCents: number }> } }>>(
        `SELECT status, note, detail FROM reconciliation_divergences WHERE kind = 'missing_at_provider' AND attempt_id = $1`,
        [late.attempt.id],
      );
    // Another success of 23:59 whose payment never books: a payment carrying its reference is not that payment.
    const other = await succeeded();
    await stack.db.query(`UPDATE attempts SET created_at = $2, provider_ref = $3 WHERE id = $1`, [other.attempt.id, `${yesterday}T23:59:00Z`, `pay_gone${randomUUID().slice(0, 6)}`]);
    const otherMissing = () => stack.db.query<Array<{ status: string }>>(`SELECT status FROM reconciliation_divergences WHERE kind = 'missing_at_provider' AND attempt_id = $1`, [other.attempt.id]);
    await run({ source: 'api', date: yesterday });
    expect((await missing()).map((d) => d.status)).toEqual(['open']);
    await run({ source: 'api' });
    expect(await otherMissing()).toEqual([{ status: 'open' }]);
    const [closed] = await missing();
    expect(closed).toMatchObject({ status: 'acknowledged', note: 'found on a later statement', detail: { foundLater: [{ day: today, amountCents: 4990 }] } });
    // Neither day's re-run opens it again or counts the sighting twice.
    await run({ source: 'api', date: yesterday });
    await run({ source: 'api' });
    expect(await missing()).toMatchObject([{ status: 'acknowledged', detail: { foundLater: [{ day: today }] } }]);
  });
});
