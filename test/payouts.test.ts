import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { LedgerEntryEntity } from '@app/database';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { attemptStatus, balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Pix payouts end to end: the api, the worker's retry, resolution and sweeper processors, the real PostgreSQL
 * and Redis, and the Efí simulator. The simulator settles a transfer shortly after accepting it (EM_PROCESSAMENTO
 * first), so every payout goes unknown → resolved by a lookup by idEnvio, as a real Efí transfer does.
 */
describe('Pix payouts: reserve on open, debit on success, release on failure', () => {
  let efi: EfiSimulator;
  let stack: TestStack;

  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_500 });
    stack = await startTestStack({ worker: true, efi, env: { CONSISTENT_LOOKUP_GRACE_MS: '300' } });
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
      `SELECT resolved_by, (EXTRACT(EPOCH FROM resolved_at - last_send_ended_at) * 1000)::float8 AS waited_ms FROM charge_attempts WHERE id = $1`,
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

  it("refuses a merchant token reading or paying out from another merchant's account (403), writing nothing", async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const mine = await payout(accountId, 1_000);
    expect(mine.status).toBe(201);
    const other = { Authorization: `Bearer ${await stack.app.get(ApiTokenService).create(`other-merchant-${randomUUID()}`, 'merchant')}` };
    const pay = await stack.http.post(`/accounts/${accountId}/payouts`).set(other).send(payoutBody(1_000));
    expect(pay.status).toBe(403);
    expect(pay.body.code).toBe('account_forbidden');
    const read = await stack.http.get(`/payouts/${mine.body.id}`).set(other);
    expect(read.status).toBe(403);
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
});
