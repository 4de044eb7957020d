import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderFactApplier } from '@app/attempts';
import { ApiTokenService } from '@app/auth';
import { LedgerEntryEntity } from '@app/database';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { attemptStatus, balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { newReviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Pix payouts end to end: the api, the worker's retry, resolution and sweeper processors, the real PostgreSQL
 * and Redis, and the Efí simulator. The simulator settles a transfer shortly after accepting it (EM_PROCESSAMENTO
 * first), so every payout goes unknown → resolved by a lookup by idEnvio, as a real Efí transfer does.
 */
const WEBHOOK_HMAC = 'efi-webhook-hmac-for-tests-0123456789';

describe('Pix payouts: reserve on open, debit on success, release on failure', () => {
  let efi: EfiSimulator;
  let stack: TestStack;

  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_500 });
    stack = await startTestStack({ worker: true, efi, env: { CONSISTENT_LOOKUP_GRACE_MS: '300', EFI_WEBHOOK_HMAC: WEBHOOK_HMAC } });
  });
  // The simulator is never reset between tests (that would revoke the api's cached token): counters are read
  // as deltas from the start of each test, and transfers by idEnvio.
  let base: ReturnType<EfiSimulator['stats']>;
  beforeEach(() => {
    base = efi.stats();
    efi.setFaults({ rules: [] });
  });
  const since = () => {
    const now = efi.stats();
    return {
      transfersCreated: now.transfersCreated - base.transfersCreated,
      sends: now.requests.sends - base.requests.sends,
      lookups: now.requests.lookups - base.requests.lookups,
      fault: (name: string) => (now.faultsInjected[name] ?? 0) - (base.faultsInjected[name] ?? 0),
    };
  };
  const transfersOf = (attemptId: string) => efi.transfers().filter((t) => t.idEnvio === attemptId.replace(/-/g, ''));
  afterAll(async () => {
    await stack.close();
    await efi.close();
  });

  const debits = (attemptId: string) => efi.stats().debitsByIdEnvio[attemptId.replace(/-/g, '')] ?? 0;

  async function payout(accountId: string, amountCents: number, headers: Record<string, string> = {}) {
    return stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).set(headers).send(payoutBody(amountCents));
  }

  async function settled(payoutId: string) {
    return waitFor(
      async () => (await stack.http.get(`/payouts/${payoutId}`).set(stack.auth('merchant'))).body as { status: string; attempts: Array<{ id: string; status: string }> },
      (view) => view.status === 'succeeded' || view.status === 'failed',
      15_000,
      `payout ${payoutId} to settle`,
    );
  }

  it('sends one Pix under idEnvio = the attempt id as 32 hex, reserves on open and debits when the lookup finds it REALIZADO', async () => {
    const accountId = await fundedAccount(stack, 10_000);
    const res = await payout(accountId, 2_500);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ accountId, amountCents: 2_500, currency: 'brl', status: 'processing' });
    const [attempt] = res.body.attempts;
    expect(attempt.transferId).toBe(attempt.id.replace(/-/g, ''));
    expect(attempt.transferId).toMatch(/^[0-9a-f]{32}$/);
    // Accepted EM_PROCESSAMENTO: the money is held, not yet gone, and not spendable.
    expect(await balanceOf(stack, accountId)).toEqual(expect.objectContaining({ reservedCents: 2_500 }));

    const view = await settled(res.body.id);
    expect(view.status).toBe('succeeded');
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 7_500, reservedCents: 0 });
    expect(await entriesOf(stack, accountId, attempt.id)).toEqual(['reserve', 'debit']);
    expect(debits(attempt.id)).toBe(1);
    expect(transfersOf(attempt.id)).toEqual([expect.objectContaining({ idEnvio: attempt.transferId, valor: '25.00', status: 'REALIZADO' })]);
  });

  it('reserves and sends exactly 10 of 100 concurrent payouts against an account funded for exactly 10, refusing 90 with 422 naming availableCents', async () => {
    const accountId = await fundedAccount(stack, 10 * 1_000);
    const results = await Promise.all(Array.from({ length: 100 }, () => payout(accountId, 1_000)));
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 422);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const r of refused) {
      expect(r.body.code).toBe('insufficient_balance');
      expect(r.body.details).toMatchObject({ accountId, availableCents: 0, requestedCents: 1_000 });
      expect(r.body.message).toMatch(/0 brl cents available/);
    }
    // A refusal leaves no payout, attempt or entry behind; every accepted one sent exactly one Pix.
    const [{ payouts }] = await stack.db.query<Array<{ payouts: number }>>(`SELECT count(*)::int AS payouts FROM payouts WHERE account_id = $1`, [accountId]);
    expect(payouts).toBe(10);
    expect(since().transfersCreated).toBe(10);
    for (const r of created) await settled(r.body.id);
    for (const r of created) expect(debits(r.body.attempts[0].id)).toBe(1);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 0, reservedCents: 0 });
    const kinds = await stack.db.getRepository(LedgerEntryEntity).find({ where: { accountId } });
    expect(kinds.filter((e) => e.kind === 'reserve')).toHaveLength(10);
    expect(kinds.filter((e) => e.kind === 'debit')).toHaveLength(10);
    expect(kinds.every((e) => e.availableAfterCents >= 0 && e.reservedAfterCents >= 0)).toBe(true);
  });

  it('holds the reservation while a Pix that timed out after executing is unknown, resolves it by lookup to succeeded, and never sends it twice', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    // Fault: the Pix executes, then the response never comes (the client's read timeout fires).
    efi.setFaults({ rules: [{ fault: 'hang_after_create' }] });
    const res = await payout(accountId, 3_000);
    expect(res.status).toBe(201);
    const attemptId = res.body.attempts[0].id as string;
    expect(res.body.attempts[0]).toMatchObject({ status: 'unknown' });
    expect(since().fault('hang_after_create')).toBe(1);
    // While unknown the money is neither spendable nor released: a second payout cannot spend it.
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 2_000, reservedCents: 3_000 });
    const second = await payout(accountId, 3_000);
    expect(second.status).toBe(422);
    expect(second.body.details.availableCents).toBe(2_000);

    const view = await settled(res.body.id);
    expect(view.status).toBe('succeeded');
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 2_000, reservedCents: 0 });
    // One PUT only (the timed-out one), resolved by GET lookups: no second transfer at the provider.
    expect(since().sends).toBe(1);
    expect(since().lookups).toBeGreaterThan(0);
    expect(debits(attemptId)).toBe(1);
  });

  it('fails a Pix the provider never received only after the grace, and releases its reservation exactly once', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    // Fault: the request hangs before the provider executes anything; the client times out, so it is unknown.
    efi.setFaults({ rules: [{ fault: 'hang_before_create' }] });
    const res = await payout(accountId, 4_000);
    expect(res.status).toBe(201);
    const attemptId = res.body.attempts[0].id as string;
    expect(res.body.attempts[0].status).toBe('unknown');
    expect(since().fault('hang_before_create')).toBe(1);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 1_000, reservedCents: 4_000 });

    const view = await settled(res.body.id);
    expect(view.status).toBe('failed');
    const [row] = await stack.db.query<Array<{ resolved_by: string; waited_ms: number }>>(
      `SELECT resolved_by, (EXTRACT(EPOCH FROM resolved_at - last_send_ended_at) * 1000)::float8 AS waited_ms FROM attempts WHERE id = $1`,
      [attemptId],
    );
    expect(row.resolved_by).toBe('resolver');
    expect(row.waited_ms).toBeGreaterThanOrEqual(300);
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'release']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 5_000, reservedCents: 0 });
    expect(transfersOf(attemptId)).toEqual([]);
    expect(debits(attemptId)).toBe(0);
  });

  it('replays a payout for the same Idempotency-Key and body, refuses another body with 422, and reserves once', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const key = randomUUID();
    const first = await payout(accountId, 1_000, { 'Idempotency-Key': key });
    const again = await payout(accountId, 1_000, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const other = await payout(accountId, 2_000, { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    await settled(first.body.id);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 4_000, reservedCents: 0 });
    expect(since().transfersCreated).toBe(1);
  });

  it("answers a merchant token reading or paying out from another merchant's account 404, writing nothing", async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const mine = await payout(accountId, 1_000);
    expect(mine.status).toBe(201);
    const other = { Authorization: `Bearer ${await stack.app.get(ApiTokenService).create(`other-merchant-${randomUUID()}`, 'merchant')}` };
    const pay = await stack.http.post(`/accounts/${accountId}/payouts`).set(other).send(payoutBody(1_000));
    expect(pay.status).toBe(404);
    expect(pay.body.code).toBe('account_not_found');
    const read = await stack.http.get(`/payouts/${mine.body.id}`).set(other);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('payout_not_found');
    expect(JSON.stringify(read.body)).not.toContain('payee@example.com.br');
    expect((await stack.http.get(`/payouts/${randomUUID()}`).set(stack.auth('merchant'))).status).toBe(404);
    await settled(mine.body.id);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 4_000, reservedCents: 0 });
    expect(since().transfersCreated).toBe(1);
  });

  it('refuses bad input with 400 naming the field, reserving and sending nothing', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const cases: Array<[Record<string, unknown>, string]> = [
      [payoutBody(0), 'amountCents'],
      [payoutBody(1.5), 'amountCents'],
      [payoutBody(100, { pixKeyType: 'iban' }), 'pixKeyType'],
      [payoutBody(100, { pixKeyType: 'cpf', pixKey: '123.456.789-01' }), 'pixKey'],
      [payoutBody(100, { description: 'x'.repeat(141) }), 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).send(body);
      expect(res.status, field).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(field);
    }
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 5_000, reservedCents: 0 });
    expect(since().sends).toBe(0);
    expect(await attemptStatus(stack, randomUUID()).catch(() => 'none')).toBe('none');
  });

  /** Efí appends `/pix` to the registered URL; registering `...?hmac=X&ignorar=` keeps the secret in the query. */
  const webhookUrl = () => `${stack.baseUrl}/webhooks/efi?hmac=${WEBHOOK_HMAC}&ignorar=`;

  it('applies an authenticated REALIZADO webhook through the same applier (debit once), acknowledges its duplicate, and refuses a forged one', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    efi.configure({ settleAfterMs: null, webhook: { url: webhookUrl() } });
    // Fault: the resolver's first lookups fail, so the webhook is what settles the transfer.
    efi.setFaults({ rules: [{ fault: '500', on: 'query', times: 3 }] });
    try {
      const res = await payout(accountId, 1_200);
      expect(res.status).toBe(201);
      const attemptId = res.body.attempts[0].id as string;
      const idEnvio = res.body.attempts[0].transferId as string;
      const forged = await stack.http.post('/webhooks/efi/pix?hmac=wrong').send({ pix: [{ endToEndId: 'E1', valor: '12.00', status: 'REALIZADO', gnExtras: { idEnvio } }] });
      expect(forged.status).toBe(400);
      expect(await attemptStatus(stack, attemptId)).toBe('unknown');

      efi.settle(idEnvio, 'REALIZADO');
      await efi.webhooksIdle();
      expect(efi.webhookDeliveries().filter((d) => d.idEnvio === idEnvio)).toEqual([expect.objectContaining({ outcome: 'delivered', httpStatus: 200 })]);
      expect((await settled(res.body.id)).status).toBe('succeeded');
      const [transition] = await stack.db.query<Array<{ cause: string }>>(`SELECT cause FROM attempt_transitions WHERE attempt_id = $1 AND to_status = 'succeeded'`, [attemptId]);
      expect(transition.cause).toBe('webhook');
      expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);

      const [transfer] = transfersOf(attemptId);
      const again = await stack.http
        .post(`/webhooks/efi/pix?hmac=${WEBHOOK_HMAC}`)
        .send({ pix: [{ endToEndId: transfer.endToEndId, valor: '12.00', status: 'REALIZADO', gnExtras: { idEnvio } }] });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ duplicate: true, disposition: 'duplicate' });
      expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);
      expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_800, reservedCents: 0 });
      expect(debits(attemptId)).toBe(1);
    } finally {
      efi.configure({ settleAfterMs: 20, webhook: { url: null } });
    }
  });

  it('records a Pix executed after its payout failed and released as a late debit: the shortfall is owed, payouts are refused, a credit repays it first', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    efi.setFaults({ rules: [{ fault: 'hang_before_create' }] });
    const res = await payout(accountId, 2_000);
    const attemptId = res.body.attempts[0].id as string;
    const idEnvio = res.body.attempts[0].transferId as string;
    expect((await settled(res.body.id)).status).toBe('failed');
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'release']);
    // The released money is spent by another payout before the provider's truth arrives.
    efi.setFaults({ rules: [] });
    const spend = await payout(accountId, 4_000);
    expect((await settled(spend.body.id)).status).toBe('succeeded');
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 1_000, reservedCents: 0 });

    // The provider reports the first transfer executed after all (a Pix that left later than any grace).
    const e2e = 'E09089356202612030000late0000001';
    const late = await stack.http
      .post(`/webhooks/efi?hmac=${WEBHOOK_HMAC}&ignorar=/pix`)
      .send({ pix: [{ endToEndId: e2e, valor: '20.00', status: 'REALIZADO', gnExtras: { idEnvio } }] });
    expect(late.status).toBe(200);
    expect(late.body.disposition).toBe('flagged');
    // The failure is never rewritten: the execution is recorded beside it.
    const [attempt] = await stack.db.query<Array<{ status: string; late_executed_at: Date | null; late_execution_end_to_end_id: string | null }>>(
      `SELECT status, late_executed_at, late_execution_end_to_end_id FROM attempts WHERE id = $1`,
      [attemptId],
    );
    expect(attempt).toMatchObject({ status: 'failed', late_execution_end_to_end_id: e2e });
    expect(attempt.late_executed_at).not.toBeNull();
    // The money left, so the payout was paid, by the attempt we had failed.
    const paid = (await stack.http.get(`/payouts/${res.body.id}`).set(stack.auth('merchant'))).body;
    expect(paid).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ id: attemptId, status: 'failed', endToEndId: e2e, lateExecutedAt: expect.any(String) })] });
    // 2 000 left: 1 000 from available, the 1 000 short is owed. Nothing negative anywhere.
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'release', 'late_debit']);
    const owing = await stack.http.get(`/accounts/${accountId}/balance`).set(stack.auth('merchant'));
    expect(owing.body).toEqual({ availableCents: 0, reservedCents: 0, owedCents: 1_000, currency: 'brl' });
    expect((await stack.http.get(`/accounts/${accountId}`).set(stack.auth('merchant'))).body.owedCents).toBe(1_000);
    const moved = async () => {
      const [sums] = await stack.db.query<Array<{ credits: number; debits: number }>>(
        `SELECT COALESCE(sum(amount_cents) FILTER (WHERE kind = 'credit'), 0)::float8 AS credits,
                COALESCE(sum(amount_cents) FILTER (WHERE kind IN ('debit','late_debit')), 0)::float8 AS debits
           FROM ledger_entries WHERE account_id = $1`,
        [accountId],
      );
      return sums;
    };
    const owingBalance = owing.body as { availableCents: number; reservedCents: number; owedCents: number };
    const sums = await moved();
    expect(owingBalance.availableCents + owingBalance.reservedCents - owingBalance.owedCents).toBe(sums.credits - sums.debits);
    expect(sums.credits - sums.debits).toBe(-1_000);

    // A person sees it, with the transfer as evidence.
    const [item] = await stack.db.query<Array<{ reason: string; state: string; evidence: { findings: { fact: { outcome: string; providerChargeId: string }; lateDebit: { amountCents: number; owedCents: number } } } }>>(
      `SELECT reason, state, evidence FROM review_items WHERE attempt_id = $1`,
      [attemptId],
    );
    expect(item).toMatchObject({ reason: 'provider_success_after_failure', state: 'open' });
    expect(item.evidence.findings.fact).toMatchObject({ outcome: 'succeeded', providerChargeId: e2e });
    expect(item.evidence.findings.lateDebit).toMatchObject({ amountCents: 2_000, owedCents: 1_000 });

    // The same fact again, through another channel (a lookup, the statement): nothing more is recorded.
    const again = await stack.db.transaction((em) =>
      stack.app.get(ProviderFactApplier).apply(em, attemptId, { outcome: 'succeeded', providerChargeId: e2e, amountCents: 2_000, currency: 'brl' }, { cause: 'reconciliation', actor: 'reconciliation', evidence: { lineId: 'again' } }),
    );
    expect(again).toEqual({ action: 'none', reason: 'already_in_that_state' });
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'release', 'late_debit']);
    const [{ findings }] = await stack.db.query<Array<{ findings: number }>>(
      `SELECT COALESCE(jsonb_array_length(evidence->'laterFindings'), 0)::int AS findings FROM review_items WHERE attempt_id = $1`,
      [attemptId],
    );
    expect(findings).toBe(0);

    // While it owes, the account sends nothing, and says why.
    const refused = await payout(accountId, 100);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'account_owes', details: { accountId, owedCents: 1_000 } });

    // A credit pays the debt first; only the rest becomes available.
    const credit = await stack.http
      .post(`/accounts/${accountId}/credits`)
      .set(stack.auth('admin'))
      .set('Idempotency-Key', randomUUID())
      .send({ amountCents: 1_500, reference: `repay-${randomUUID()}` });
    expect(credit.status).toBe(201);
    expect(credit.body.balance).toEqual({ availableCents: 500, reservedCents: 0, owedCents: 0, currency: 'brl' });
    expect(credit.body.entry).toMatchObject({ kind: 'credit', amountCents: 1_500, availableAfterCents: 500, owedAfterCents: 0 });
    const repaid = await moved();
    expect(500 - 0).toBe(repaid.credits - repaid.debits);
    const [negatives] = await stack.db.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM ledger_accounts WHERE available_cents < 0 OR reserved_cents < 0 OR owed_cents < 0`,
    );
    expect(negatives.n).toBe(0);
    expect((await payout(accountId, 500)).status).toBe(201);
  });

  it('hands an unknown payout the resolver gave up on to the review queue, where a verified succeeded decision debits its reservation once', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    // Faults: the Pix executes but its response is lost, and every lookup fails until the resolver gives up.
    efi.setFaults({ rules: [{ fault: 'hang_after_create' }, { fault: '500', on: 'query', times: 1_000 }] });
    const res = await payout(accountId, 1_500);
    const attemptId = res.body.attempts[0].id as string;
    const view = await waitFor(
      async () => (await stack.http.get(`/payouts/${res.body.id}`).set(stack.auth('merchant'))).body as { status: string },
      (v) => v.status === 'in_review',
      15_000,
      'the resolver to hand the payout to a person',
    );
    expect(view.status).toBe('in_review');
    expect(await attemptStatus(stack, attemptId)).toBe('unknown');
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 1_500 });
    efi.setFaults({ rules: [] });

    const alice = await newReviewer(stack, 'alice');
    const listed = await stack.http.get('/review/items?provider=efi&state=open').set(alice.headers);
    const item = (listed.body.items as Array<{ id: string; attemptId: string; amountCents: number; currency: string }>).find((i) => i.attemptId === attemptId)!;
    expect(item).toMatchObject({ amountCents: 1_500, currency: 'brl', chargeId: null, payoutId: res.body.id });
    // The evidence a person decides on: the payout, its attempt with the exact payload, every provider call.
    const detail = await stack.http.get(`/review/items/${item.id}`).set(alice.headers);
    expect(detail.body.evidence.payout).toMatchObject({ id: res.body.id, accountId, amountCents: 1_500 });
    expect(detail.body.evidence.attempts).toEqual([expect.objectContaining({ id: attemptId, status: 'unknown', payload: expect.stringContaining('"valor":"15.00"') })]);
    expect(detail.body.evidence.providerCalls.length).toBeGreaterThanOrEqual(2);
    expect((await stack.http.post(`/review/items/${item.id}/claim`).set(alice.headers)).status).toBe(200);
    const [transfer] = transfersOf(attemptId);
    const decided = await stack.http
      .post(`/review/items/${item.id}/decision`)
      .set(alice.headers)
      .send({ action: 'succeeded', providerChargeId: transfer.endToEndId, reason: 'Efí shows the transfer REALIZADO' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body).toMatchObject({ state: 'closed', attemptStatus: 'succeeded' });
    expect(await entriesOf(stack, accountId, attemptId)).toEqual(['reserve', 'debit']);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 0 });
    expect(debits(attemptId)).toBe(1);
    expect((await stack.http.get(`/payouts/${res.body.id}`).set(stack.auth('merchant'))).body.status).toBe('succeeded');
  });
});
