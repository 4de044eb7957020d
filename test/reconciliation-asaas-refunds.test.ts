import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { reconcile } from './support/reconciliation.js';
import { postRefund, refund, succeededCharge } from './support/refunds.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 24, "refunds are reconciled", for Asaas: its payments list is by payment date, so a refund shows only in
 * its account statement (extrato), whose refund entries name the payment; the payment's `refunds[]` say which
 * refund, for how much, and (in the description) which attempt of ours. Same divergence kinds and cap rules as
 * Stripe's. Then a refund request racing the run: both take the charge's row lock, so the second sees the first.
 * Own database and simulator, so no other file's refunds are in its day.
 */
describe('nightly reconciliation of Asaas refunds', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const asaasCharge = () => succeededCharge(stack, ASAAS_PROFILE.chargeBody());
  const run = () => reconcile(stack, today, 'api', 'asaas');
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}&limit=100`).set(stack.auth('admin'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items as Array<{ kind: string; providerChargeId: string | null; attemptId: string | null; chargeId: string | null; amountCents: number }>;
  };
  /** A refund made in Asaas's panel: a plain refund call with Asaas's own description, none of ours. */
  const refundInPanel = async (paymentId: string, value: number) => {
    const res = await fetch(`${stack.sim.apiUrl}/v3/payments/${paymentId}/refund`, {
      method: 'POST',
      headers: { access_token: 'panel', 'Content-Type': 'application/json' },
      body: JSON.stringify({ value, description: 'Estorno pelo painel' }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    const databaseUrl = await scratchDatabase('reconciliation_asaas_refunds');
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC' } });
  });
  afterAll(async () => stack.close());

  it('a clean day with one refund of ours, done at Asaas for its amount, has no divergence', async () => {
    const charge = await asaasCharge();
    expect((await refund(stack, charge.id, 1000)).status).toBe('succeeded');
    const before = stack.sim.stats().asaas.requests.financialTransactions;
    const clean = await run();
    expect(clean.divergences).toMatchObject({ refund_provider_only: 0, refund_missing_at_provider: 0, refund_amount_mismatch: 0 });
    // The charge and its refund: two lines read, both matched.
    expect(clean).toMatchObject({ linesRead: 2, matched: 2 });
    expect(stack.sim.stats().asaas.requests.financialTransactions - before).toBeGreaterThanOrEqual(1);
  });

  it('records a refund missing at Asaas, one made in its panel and one of another amount, and caps the charge', async () => {
    // Our success Asaas never saw: edited into our rows, against a real payment.
    const missing = await asaasCharge();
    const refundId = randomUUID();
    const missingAttempt = randomUUID();
    const missingPayment = missing.attempts[0].providerChargeId!;
    await stack.db.query(`INSERT INTO refunds (id, charge_id, merchant_id, amount_cents, currency, created_by) VALUES ($1, $2, $3, 300, 'brl', 'test')`, [refundId, missing.id, stack.merchantId]);
    await stack.db.query(
      `INSERT INTO attempts (id, charge_id, operation, refund_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by)
       VALUES ($1, $2, 'refund', $3, $4, 'asaas', 'succeeded', $5, '', repeat('0', 64), 1, now(), 'submit')`,
      [missingAttempt, missing.id, refundId, randomUUID(), `${missingPayment}:refund:${missingAttempt}`],
    );

    // Refunded in Asaas's panel, R$ 7,00 of its 49,90: we never asked.
    const panel = await asaasCharge();
    const panelPayment = panel.attempts[0].providerChargeId!;
    await refundInPanel(panelPayment, 7);

    // Ours, but Asaas refunded another amount than we recorded: as if we had asked for 1900 while it refunded 2000.
    const mismatch = await asaasCharge();
    const mismatched = await refund(stack, mismatch.id, 2000);
    await stack.db.query(`UPDATE refunds SET amount_cents = 1900 WHERE id = $1`, [mismatched.id]);
    await stack.db.query(`UPDATE charges SET refund_committed_cents = refund_committed_cents - 100 WHERE id = $1`, [mismatch.id]);

    const night = await run();
    expect(night.divergences).toMatchObject({ refund_provider_only: 1, refund_missing_at_provider: 1, refund_amount_mismatch: 1 });
    const found = await divergencesOf(night.id);
    expect(found.find((d) => d.kind === 'refund_missing_at_provider')).toMatchObject({ attemptId: missingAttempt, chargeId: missing.id, amountCents: 300 });
    expect(found.find((d) => d.kind === 'refund_provider_only')).toMatchObject({ chargeId: panel.id, attemptId: null, amountCents: 700 });
    expect(found.find((d) => d.kind === 'refund_amount_mismatch')).toMatchObject({ chargeId: mismatch.id, attemptId: mismatched.attempts[0].id, amountCents: 2000 });

    // What Asaas refunded without us caps what may still be refunded: 4990 − 700.
    const over = await postRefund(stack, panel.id, { amountCents: 4990 - 700 + 1 });
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(over.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 4290 } });
    // And the 100 Asaas refunded beyond ours: 4990 − 1900 − 100.
    const beyond = await postRefund(stack, mismatch.id, { amountCents: 2991 });
    expect(beyond.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 2990 } });

    // A second run of the day finds the same, once each.
    const again = await run();
    expect(again.divergences).toMatchObject({ refund_provider_only: 1, refund_missing_at_provider: 1, refund_amount_mismatch: 1 });
  });

  it('a refund request racing the run waits for the charge lock the run holds, then sees its divergence', async () => {
    const charge = await asaasCharge();
    await refundInPanel(charge.attempts[0].providerChargeId!, 7);
    // A transaction holding the charge's row lock, as a refund opener mid-commit does.
    const holder = stack.db.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      const [{ pid }] = await holder.query(`SELECT pg_backend_pid() AS pid`);
      await holder.query(`SELECT id FROM charges WHERE id = $1 FOR UPDATE`, [charge.id]);
      const blockedBy = async (pids: number[]) =>
        (await stack.db.query<Array<{ pid: number }>>(`SELECT pid FROM pg_stat_activity WHERE pg_blocking_pids(pid) && $1::int[]`, [pids])).map((r) => r.pid);

      // The run reaches the refund step and waits on that lock: nothing recorded yet.
      const started = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'asaas', date: today, source: 'api' });
      expect(started.status).toBe(202);
      const [runPid] = await waitFor(() => blockedBy([pid]), (pids) => pids.length === 1, 15_000, 'the run to wait on the charge lock');
      expect((await stack.db.query(`SELECT status FROM reconciliation_runs WHERE id = $1`, [started.body.id]))[0].status).toBe('running');
      expect(await stack.db.query(`SELECT id FROM reconciliation_divergences WHERE charge_id = $1`, [charge.id])).toEqual([]);

      // A refund request for everything the charge had before the panel refund queues behind the run.
      // `then` sends it now (supertest sends lazily); it is awaited once the lock is let go.
      const request = postRefund(stack, charge.id, { amountCents: 4990 }).then((res) => res);
      await waitFor(() => blockedBy([pid, runPid]), (pids) => pids.length === 2, 15_000, 'the refund request to queue behind the run');
      await holder.commitTransaction();

      // The run records the panel refund first; the request, committing second, sees it and is refused.
      const refused = await request;
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'refund_exceeds_refundable', details: { refundableCents: 4290 } });
      const divergences = await stack.db.query(`SELECT kind, amount_cents FROM reconciliation_divergences WHERE charge_id = $1`, [charge.id]);
      expect(divergences).toEqual([{ kind: 'refund_provider_only', amount_cents: '700' }]);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });
});
