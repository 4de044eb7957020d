import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { createCharge, submit, transitionsOf } from './support/charges.js';
import { insertSucceededAttempt, reconcile, waitForRun } from './support/reconciliation.js';
import { getRefund, refund } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

interface Planted {
  matched: string;
  amountMismatch: string;
  currencyMismatch: string;
  missingAttempt: string;
  providerOnly: string;
  duplicate: string;
  settledAttempt: string;
  settledIntent: string;
  /** Settled too, but its item asks about a second provider charge, which the line does not answer. */
  settledWithDuplicateItem: string;
  refundedCharge: string;
  refundedByUs: string;
}

/**
 * One day with every kind of divergence planted, at the simulator (provider-only and second charges,
 * refunds, disputes) or by editing our rows (amounts, currencies, a success the provider never saw). The
 * file has its own database and simulator, so parallel test files never appear in its statement or its day.
 */
describe('nightly reconciliation against the provider statement', () => {
  let stack: TestStack;
  let planted: Planted;
  const today = dayOf(new Date(), 'UTC');
  type Divergence = { id: string; kind: string; providerChargeId: string | null; attemptId: string | null };
  const divergences = async (query: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?${query}`).set(stack.auth('admin'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Divergence[]; nextCursor: string | null };
  };
  const byKind = (items: Divergence[]) =>
    Object.fromEntries(
      ['provider_only', 'duplicate_charge', 'missing_at_provider', 'amount_mismatch', 'currency_mismatch'].map((kind) => [
        kind,
        items.filter((d) => d.kind === kind).map((d) => (kind === 'missing_at_provider' ? d.attemptId : d.providerChargeId)).sort(),
      ]),
    );

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation');
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', RECONCILIATION_REPORT_POLL_MS: '20' } });
    const succeeded = async (overrides: Record<string, unknown> = {}) => {
      const view = await submit(stack, (await createCharge(stack, overrides)).id);
      expect(view.status).toBe('succeeded');
      return { chargeId: view.id, attempt: view.attempts[0] };
    };
    const matched = await succeeded();
    const amount = await succeeded();
    await stack.db.query(`UPDATE charges SET amount_cents = amount_cents + 100 WHERE id = $1`, [amount.chargeId]);
    const currency = await succeeded();
    await stack.db.query(`UPDATE charges SET currency = 'eur' WHERE id = $1`, [currency.chargeId]);
    const missingCharge = await createCharge(stack);
    const missingAttempt = await insertSucceededAttempt(stack, missingCharge.id, `pi_never_${randomUUID().slice(0, 8)}`);
    const [providerOnly] = stack.sim.plantCharges([{ amount: 700, currency: 'usd' }]);
    const duplicated = await succeeded();
    const [second] = stack.sim.plantCharges([{ amount: 4990, metadata: { attempt_id: duplicated.attempt.id, charge_id: duplicated.chargeId } }]);

    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId } }] });
    const lost = await submit(stack, (await createCharge(stack, { customerId })).id);
    expect(lost.attempts[0].status).toBe('unknown');
    await stack.db.query(`INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, 'tries_exhausted', '{}', 'open')`, [
      randomUUID(),
      lost.attempts[0].id,
    ]);
    const otherCustomer = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: otherCustomer } }] });
    const lostWithDuplicate = await submit(stack, (await createCharge(stack, { customerId: otherCustomer })).id);
    expect(lostWithDuplicate.attempts[0].status).toBe('unknown');
    await stack.db.query(`INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, 'duplicate_provider_charges', '{}', 'open')`, [
      randomUUID(),
      lostWithDuplicate.attempts[0].id,
    ]);
    // A refund through our own API: its statement line is explained, and our refund attempt is no charge.
    const refundedByUs = await succeeded();
    expect((await refund(stack, refundedByUs.chargeId, 1200)).status).toBe('succeeded');
    stack.sim.addMovement(matched.attempt.providerChargeId!, 'refund', { amount: 1000 });
    stack.sim.addMovement(matched.attempt.providerChargeId!, 'dispute', { amount: 4990 });
    planted = {
      matched: matched.attempt.providerChargeId!,
      amountMismatch: amount.attempt.providerChargeId!,
      currencyMismatch: currency.attempt.providerChargeId!,
      missingAttempt,
      providerOnly: providerOnly.paymentIntentId,
      duplicate: second.paymentIntentId,
      settledAttempt: lost.attempts[0].id,
      settledIntent: stack.sim.intents({ attemptId: lost.attempts[0].id })[0].id,
      settledWithDuplicateItem: lostWithDuplicate.attempts[0].id,
      refundedCharge: matched.chargeId,
      refundedByUs: refundedByUs.chargeId,
    };
  });
  afterAll(async () => stack.close());

  it('reports exactly the planted divergences, by kind and id, settles the unknown attempt and proposes refunds', async () => {
    const run = await reconcile(stack, today, 'api');
    // Matched: three charges, the two settled ones, and our own refund; the refund no one of ours made diverges.
    expect(run).toMatchObject({
      linesRead: 12,
      matched: 6,
      settled: 2,
      divergences: { provider_only: 1, duplicate_charge: 1, missing_at_provider: 1, amount_mismatch: 1, currency_mismatch: 1, refund_provider_only: 1 },
    });
    expect(stack.sim.stats().requests.balanceTransactions).toBeGreaterThanOrEqual(1);
    const found = await divergences(`runId=${run.id}`);
    expect(byKind(found.items)).toEqual({
      provider_only: [planted.providerOnly],
      duplicate_charge: [planted.duplicate],
      missing_at_provider: [planted.missingAttempt],
      amount_mismatch: [planted.amountMismatch],
      currency_mismatch: [planted.currencyMismatch],
    });

    // The unknown attempt is settled by the statement, with its review item closed on that evidence.
    const [attempt] = await stack.db.query(`SELECT status, provider_ref, resolved_by FROM attempts WHERE id = $1`, [planted.settledAttempt]);
    expect(attempt).toEqual({ status: 'succeeded', provider_ref: planted.settledIntent, resolved_by: 'reconciliation' });
    expect(await transitionsOf(stack, planted.settledAttempt)).toEqual(['new→pending:submit', 'pending→unknown:submit', 'unknown→succeeded:reconciliation']);
    const [item] = await stack.db.query(`SELECT state, decision, decided_by, evidence FROM review_items WHERE attempt_id = $1`, [planted.settledAttempt]);
    expect(item).toMatchObject({ state: 'closed', decision: 'succeeded', decided_by: 'reconciliation' });
    expect(item.evidence.reconciliation).toMatchObject({ runId: run.id, providerChargeId: planted.settledIntent });
    // Reconciliation closes only what its line answers: a question about a second provider charge stays a person's.
    const [duplicateItem] = await stack.db.query(`SELECT state, evidence FROM review_items WHERE attempt_id = $1`, [planted.settledWithDuplicateItem]);
    expect(duplicateItem.state).toBe('open');
    expect(duplicateItem.evidence.reconciliation).toMatchObject({ runId: run.id });
    expect((await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [planted.settledWithDuplicateItem]))[0].status).toBe('succeeded');

    // Money back: one proposal per provider-only or second charge, nothing for the rest.
    const proposals = await stack.http.get('/reconciliation/refund-proposals').set(stack.auth('admin'));
    expect(proposals.body.map((p: { providerChargeId: string; reason: string; state: string }) => [p.reason, p.providerChargeId, p.state]).sort()).toEqual(
      [['duplicate_charge', planted.duplicate, 'proposed'], ['provider_only', planted.providerOnly, 'proposed']].sort(),
    );

    // Refunds and disputes in the statement update the charge.
    const [charge] = await stack.db.query(`SELECT provider_refunded_cents::int AS r, provider_disputed_cents::int AS d FROM charges WHERE id = $1`, [planted.refundedCharge]);
    expect(charge).toEqual({ r: 1000, d: 4990 });
    const [ours] = await stack.db.query(`SELECT provider_refunded_cents::int AS r, provider_disputed_cents::int AS d FROM charges WHERE id = $1`, [planted.refundedByUs]);
    expect(ours).toEqual({ r: 1200, d: 0 });

    const metrics = await stack.metrics();
    expect(metrics).toMatch(/charge_once_reconciliation_open_divergences\{kind="provider_only"\} 1/);
    expect(metrics).toMatch(/charge_once_reconciliation_last_run_lines\{provider="stripe"\} 12/);
    expect(metrics).toMatch(/charge_once_reconciliation_last_success_timestamp_seconds\{provider="stripe"\} \d+/);
  });

  it('a second run of the same day changes nothing and keeps acknowledgements, through the report file too', async () => {
    const { items } = await divergences('kind=provider_only');
    const ack = await stack.http.post(`/reconciliation/divergences/${items[0].id}/ack`).set(stack.auth('admin')).send({ note: 'customer refunded by phone' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body).toMatchObject({ status: 'acknowledged', note: 'customer refunded by phone' });
    const snapshot = () =>
      Promise.all([
        stack.db.query(`SELECT * FROM reconciliation_divergences ORDER BY id`),
        stack.db.query(`SELECT * FROM refund_proposals ORDER BY id`),
        stack.db.query(`SELECT * FROM reconciliation_money_movements ORDER BY line_id`),
        stack.db.query(`SELECT id, status, provider_ref, updated_at FROM attempts ORDER BY id`),
        stack.db.query(`SELECT count(*)::int AS n FROM attempt_transitions`),
        stack.db.query(`SELECT id, provider_refunded_cents, provider_disputed_cents FROM charges ORDER BY id`),
        stack.db.query(`SELECT id, state, updated_at FROM review_items ORDER BY id`),
      ]);
    const before = await snapshot();

    const again = await reconcile(stack, today, 'api');
    const viaReport = await reconcile(stack, today, 'report');
    expect(await snapshot()).toEqual(before);
    for (const run of [again, viaReport]) {
      expect(run).toMatchObject({ linesRead: 12, matched: 6, settled: 0, divergences: { provider_only: 1, duplicate_charge: 1, missing_at_provider: 1, amount_mismatch: 1, currency_mismatch: 1, refund_provider_only: 1 } });
      expect((await divergences(`runId=${run.id}`)).items.map((d) => d.id).sort()).toEqual(before[0].map((d: { id: string }) => d.id).sort());
    }
    expect(stack.sim.stats().requests).toMatchObject({ reportRuns: expect.any(Number), reportFiles: 1 });
    expect((await divergences('status=acknowledged')).items.map((d) => d.id)).toEqual([items[0].id]);
  });

  it('pages divergences with a cursor and filters them', async () => {
    const first = await divergences('limit=2');
    expect(first.items).toHaveLength(2);
    const second = await divergences(`limit=2&cursor=${first.nextCursor}`);
    const third = await divergences(`limit=2&cursor=${second.nextCursor}`);
    const fourth = await divergences(`limit=2&cursor=${third.nextCursor}`);
    expect(fourth.nextCursor).toBeNull();
    // Six planted mismatches and the planted dispute, which is a chargeback for a person (issue 35).
    expect(new Set([...first.items, ...second.items, ...third.items, ...fourth.items].map((d) => d.id)).size).toBe(7);
    expect((await divergences('kind=chargeback')).items.map((d) => d.providerChargeId)).toEqual([planted.matched]);
    expect((await divergences('kind=amount_mismatch')).items.map((d) => d.providerChargeId)).toEqual([planted.amountMismatch]);
    expect((await stack.http.get('/reconciliation/divergences?cursor=nope').set(stack.auth('admin'))).status).toBe(400);
  });

  it('approving a proposal executes it once, even when two admins approve at once; rejecting needs a note', async () => {
    const list = await stack.http.get('/reconciliation/refund-proposals?state=proposed').set(stack.auth('admin'));
    const byReason = Object.fromEntries((list.body as Array<{ id: string; reason: string }>).map((p) => [p.reason, p.id]));
    const approve = (id: string) => stack.http.post(`/reconciliation/refund-proposals/${id}/approve`).set(stack.auth('admin')).send({ note: 'ok' });

    // The provider-only charge is no charge of ours: its refund names the provider charge, sent once.
    const [first, second] = await Promise.all([approve(byReason.provider_only), approve(byReason.provider_only)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const executed = (first.status === 200 ? first : second).body;
    expect(executed).toMatchObject({ state: 'executed', decidedBy: expect.any(String), decisionNote: 'ok', refundId: expect.any(String) });
    expect((first.status === 409 ? first : second).body).toMatchObject({ code: 'refund_proposal_decided' });
    const refundView = await getRefund(stack, executed.refundId, 'admin');
    expect(refundView).toMatchObject({ chargeId: null, providerChargeId: planted.providerOnly, proposalId: byReason.provider_only, amountCents: 700, status: 'succeeded' });
    expect(stack.sim.refunds({ paymentIntentId: planted.providerOnly }).map((r) => [r.amount, r.status])).toEqual([[700, 'succeeded']]);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM refunds WHERE proposal_id = $1`, [byReason.provider_only])).toEqual([{ n: 1 }]);

    // The second charge for one of ours is refunded, not our charge's own success.
    const duplicate = await approve(byReason.duplicate_charge);
    expect(duplicate.status, JSON.stringify(duplicate.body)).toBe(200);
    expect(await getRefund(stack, duplicate.body.refundId, 'admin')).toMatchObject({ chargeId: null, providerChargeId: planted.duplicate, amountCents: 4990, status: 'succeeded' });
    expect(stack.sim.refunds({ paymentIntentId: planted.duplicate }).map((r) => r.amount)).toEqual([4990]);
    expect((await approve(byReason.duplicate_charge)).status).toBe(409);

    expect((await stack.http.post(`/reconciliation/refund-proposals/${byReason.duplicate_charge}/reject`).set(stack.auth('admin')).send({ note: 'too late' })).status).toBe(409);
    const noNote = await stack.http.post(`/reconciliation/refund-proposals/${byReason.duplicate_charge}/reject`).set(stack.auth('admin')).send({});
    expect(noNote.status).toBe(400);
    expect(JSON.stringify(noNote.body)).toMatch(/note/);
    expect((await stack.http.post(`/reconciliation/refund-proposals/${randomUUID()}/approve`).set(stack.auth('admin')).send({})).status).toBe(404);
    expect((await stack.http.post(`/reconciliation/refund-proposals/${randomUUID()}/reject`).set(stack.auth('admin')).send({ note: 'x' })).status).toBe(404);
    expect((await stack.http.post(`/reconciliation/refund-proposals/${byReason.duplicate_charge}/approve`).set(stack.auth('merchant')).send({})).status).toBe(403);
    expect((await stack.http.get('/reconciliation/refund-proposals?state=executed').set(stack.auth('admin'))).body).toHaveLength(2);
  });

  it('a statement page that fails once is asked again; one that keeps failing fails the run and concludes nothing', async () => {
    const before = await stack.db.query(`SELECT id, run_id, status, updated_at FROM reconciliation_divergences ORDER BY id`);
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 1 }] });
    const recovered = await reconcile(stack, today, 'api');
    expect(recovered.divergences).toMatchObject({ provider_only: 1, duplicate_charge: 1 });
    expect(stack.sim.stats().faultsInjected.query_500).toBe(1);

    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 10 }] });
    const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'stripe', date: today });
    const failed = await waitFor(
      async () => (await stack.http.get(`/reconciliation/runs/${res.body.id}`).set(stack.auth('admin'))).body,
      (r) => r.status !== 'running',
      20_000,
      'the run to fail',
    );
    expect(failed).toMatchObject({ status: 'failed', linesRead: 0, error: expect.stringMatching(/balance_transactions answered 500/) });
    expect(stack.sim.stats().faultsInjected.query_500).toBe(5);
    stack.sim.setFaults({ rules: [] });
    expect(await stack.db.query(`SELECT id, run_id, status, updated_at FROM reconciliation_divergences ORDER BY id`)).toEqual(before);
    expect((await divergences(`runId=${res.body.id}`)).items).toEqual([]);
  });

  it('refuses bad input with a 4xx naming the field, and a second run of a running day with 409 and its id', async () => {
    const post = (body: Record<string, unknown>) => stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send(body);
    const badDate = await post({ provider: 'stripe', date: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(JSON.stringify(badDate.body)).toMatch(/date/);
    expect((await post({ provider: 'stripe', date: '01/12/2026' })).status).toBe(400);
    expect((await post({ provider: 'paypal', date: today })).status).toBe(400);
    expect((await post({ provider: 'stripe', date: today, source: 'ftp' })).status).toBe(400);
    const ack = await stack.http.post(`/reconciliation/divergences/${randomUUID()}/ack`).set(stack.auth('admin')).send({});
    expect(ack.status).toBe(400);
    expect(JSON.stringify(ack.body)).toMatch(/note/);
    expect((await stack.http.post('/reconciliation/runs').set(stack.auth('reviewer')).send({ provider: 'stripe', date: today })).status).toBe(403);

    // The report stays pending long enough for a second request to meet the first still running.
    stack.sim.configure({ reportDelayMs: 1500 });
    const running = await post({ provider: 'stripe', date: today, source: 'report' });
    expect(running.status).toBe(202);
    const conflict = await post({ provider: 'stripe', date: today });
    expect(conflict.status).toBe(409);
    expect(conflict.body.details).toEqual({ id: running.body.id });
    await waitForRun(stack, running.body.id);
    stack.sim.configure({ reportDelayMs: 0 });
  });
});
