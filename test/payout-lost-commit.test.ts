import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '@app/auth';
import { PayoutsService, type PayoutView } from '@app/payouts';
import { UnknownAttemptResolver } from '@app/resolution';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { attemptStatus, balanceOf, fundedAccount, payoutBody } from './support/payouts.js';
import { newReviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/** Default four-eyes amount: an admin's payout at or above it only asks, and another admin confirms it. */
const FOUR_EYES = 100_000;

/**
 * A payout retried under its Idempotency-Key after its first run committed (balance reserved, Pix sent) but before
 * that run's response was stored: a process killed there leaves the key's record in flight, taken over by a retry
 * once it is older than any request lives; a handler that throws after the commit forgets the record; an
 * asynchronous failover loses the payout's commit itself, record and all, while Efí already holds the transfer.
 * Each fault is made by hand on the rows, and the Efí simulator's counters prove how many transfers it executed.
 * No worker runs, so every send and lookup is a request's or the test's own.
 */
describe('a Pix payout retried under its Idempotency-Key after its first run committed', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let base: ReturnType<EfiSimulator['stats']>;

  beforeAll(async () => {
    // Transfers stay EM_PROCESSAMENTO until the test settles them: nothing moves on its own.
    efi = await startEfiSimulator({ hangMs: 1_500, settleAfterMs: null });
    stack = await startTestStack({ efi, resolution: true, env: { CONSISTENT_LOOKUP_GRACE_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });
  // The simulator is never reset (that would revoke the api's cached token): its counters are read as deltas.
  beforeEach(() => {
    base = efi.stats();
  });
  const transfersSince = () => efi.stats().transfersCreated - base.transfersCreated;
  const sendsSince = () => efi.stats().requests.sends - base.requests.sends;

  const post = (accountId: string, key: string, body: Record<string, unknown>) =>
    stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', key).send(body);

  /** Every payout and every non-credit ledger entry of the account: what a second payout would add to. */
  async function moneyOut(accountId: string): Promise<{ payouts: string[]; entries: string[] }> {
    const payouts = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM payouts WHERE account_id = $1 ORDER BY created_at`, [accountId]);
    const entries = await stack.db.query<Array<{ kind: string; reference: string }>>(
      `SELECT kind, reference FROM ledger_entries WHERE account_id = $1 AND kind <> 'credit' ORDER BY id`,
      [accountId],
    );
    return { payouts: payouts.map((p) => p.id), entries: entries.map((e) => `${e.kind} ${e.reference}`) };
  }

  async function paidOutOnce(accountId: string, key: string, amountCents: number): Promise<PayoutView> {
    const first = await post(accountId, key, payoutBody(amountCents));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(transfersSince()).toBe(1);
    return first.body as PayoutView;
  }

  /** What a process killed after the payout's commit and its send, before the record completed, leaves behind. */
  const leftInFlight = (key: string) =>
    stack.db.query(
      `UPDATE idempotency_records SET state = 'in_flight', response_status = NULL, response_body = NULL, created_at = now() - interval '3 minutes' WHERE key = $1`,
      [key],
    );
  /** What a handler that threw after the commit leaves: no record (execute() deletes it). */
  const forgotten = (key: string) => stack.db.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);

  /**
   * What an asynchronous failover does to the payout's commit, by hand: its payout row, reservation, attempt (with
   * every row naming it) and Idempotency-Key record are gone, a confirmed request waits for a second person again,
   * and the account is back to its balance before.
   * Foreign keys stay checked, so a row left naming the payout or its attempt would fail this.
   */
  async function loseCommit(accountId: string, payout: PayoutView, before: { availableCents: number; reservedCents: number }, lost: { key?: string; requestId?: string }): Promise<void> {
    const attempts = `SELECT id FROM attempts WHERE payout_id = $1`;
    await stack.db.transaction(async (em) => {
      for (const table of ['attempt_transitions', 'provider_calls', 'review_items', 'webhook_events', 'reconciliation_divergences', 'payout_returns']) {
        await em.query(`DELETE FROM ${table} WHERE attempt_id IN (${attempts})`, [payout.id]);
      }
      await em.query(`DELETE FROM events WHERE object_id = $1 OR object_id IN (${attempts})`, [payout.id]);
      await em.query(`DELETE FROM event_objects WHERE object_id = $1 OR object_id IN (${attempts})`, [payout.id]);
      await em.query(`DELETE FROM list_statuses WHERE object_id = $1`, [payout.id]);
      // Ledger entries are append-only by trigger; a lost commit is the one thing that removes them.
      await em.query(`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`);
      await em.query(`DELETE FROM ledger_entries WHERE account_id = $1 AND reference IN (SELECT id::text FROM attempts WHERE payout_id = $2)`, [accountId, payout.id]);
      await em.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
      await em.query(`DELETE FROM attempts WHERE payout_id = $1`, [payout.id]);
      if (lost.requestId) {
        await em.query(
          `UPDATE ledger_credit_requests SET state = 'awaiting_second', confirmed_by = NULL, confirmed_at = NULL, confirm_reason = NULL, payout_id = NULL WHERE id = $1`,
          [lost.requestId],
        );
      }
      await em.query(`DELETE FROM payouts WHERE id = $1`, [payout.id]);
      await em.query(`UPDATE ledger_accounts SET available_cents = $2, reserved_cents = $3 WHERE id = $1`, [accountId, before.availableCents, before.reservedCents]);
      if (lost.key) await em.query(`DELETE FROM idempotency_records WHERE key = $1`, [lost.key]);
    });
  }

  it.each([
    ['killed after its commit: the record left in flight is taken over after two minutes', leftInFlight],
    ['failed after its commit: the record was forgotten', forgotten],
  ])('%s; the retry answers the first payout, reserves nothing more and sends no second Pix', async (_case, fault) => {
    const accountId = await fundedAccount(stack, 5_000);
    const key = randomUUID();
    const first = await paidOutOnce(accountId, key, 1_500);
    const out = await moneyOut(accountId);
    expect(out.entries).toEqual([`reserve ${first.attempts[0].id}`]);
    await fault(key);

    const again = await post(accountId, key, payoutBody(1_500));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ id: first.id, amountCents: 1_500 });
    // Made by the first request, and said so: the client is not told a new payout was made.
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.attempts).toEqual([expect.objectContaining({ id: first.attempts[0].id, transferId: first.attempts[0].transferId })]);
    expect(await moneyOut(accountId)).toEqual(out);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 1_500 });
    expect(transfersSince()).toBe(1);
    expect(sendsSince()).toBe(1);
    // The retry's response was stored this time: a third try replays it.
    const replayed = await post(accountId, key, payoutBody(1_500));
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body.id).toBe(first.id);
  });

  it('lost to a failover with its record: the retry opens it again under the same idEnvio, Efí keeps one transfer, and it is debited once', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const before = await balanceOf(stack, accountId);
    const key = randomUUID();
    const first = await paidOutOnce(accountId, key, 1_500);
    const idEnvio = first.attempts[0].transferId;
    await loseCommit(accountId, first, before, { key });
    expect(await moneyOut(accountId)).toEqual({ payouts: [], entries: [] });

    const again = await post(accountId, key, payoutBody(1_500));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).toBe(first.id);
    expect(again.body.attempts).toEqual([expect.objectContaining({ id: first.attempts[0].id, transferId: idEnvio })]);
    // The resend reached Efí under the first idEnvio, which executed nothing more: one reservation, one transfer.
    expect(sendsSince()).toBe(2);
    expect(transfersSince()).toBe(1);
    expect(efi.stats().idEnvioConflicts - base.idEnvioConflicts).toBe(1);
    expect(await moneyOut(accountId)).toEqual({ payouts: [first.id], entries: [`reserve ${first.attempts[0].id}`] });
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 1_500 });

    // Efí's answer to the used idEnvio proves nothing either way: a lookup by it finds the first transfer.
    efi.settle(idEnvio, 'REALIZADO');
    expect(await stack.app.get(UnknownAttemptResolver).resolve(first.attempts[0].id)).toMatchObject({ action: 'apply', status: 'succeeded' });
    expect(await attemptStatus(stack, first.attempts[0].id)).toBe('succeeded');
    expect((await moneyOut(accountId)).entries).toEqual([`reserve ${first.attempts[0].id}`, `debit ${first.attempts[0].id}`]);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 0 });
    expect(efi.stats().debitsByIdEnvio[idEnvio]).toBe(1);
  });

  it('the same key with another amount, after its record is gone, is refused 422 and changes nothing', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const key = randomUUID();
    await paidOutOnce(accountId, key, 1_500);
    const out = await moneyOut(accountId);
    const balance = await balanceOf(stack, accountId);
    await forgotten(key);

    for (const body of [payoutBody(2_000), payoutBody(1_500, { pixKey: 'someone-else@example.com.br' }), payoutBody(1_500, { description: 'another payout' })]) {
      const other = await post(accountId, key, body);
      expect(other.status, JSON.stringify(other.body)).toBe(422);
      expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    }
    expect(await moneyOut(accountId)).toEqual(out);
    expect(await balanceOf(stack, accountId)).toEqual(balance);
    expect(sendsSince()).toBe(1);
  });

  it('two runs of one key at once (a takeover racing the first) make one payout, one reservation and one transfer', async () => {
    const accountId = await fundedAccount(stack, 5_000);
    const actor: Actor = { name: stack.tokenNames.merchant, role: 'merchant', merchantId: stack.merchantId, tokenName: stack.tokenNames.merchant };
    const input = { amountCents: 1_500, pixKey: 'payee@example.com.br', pixKeyType: 'email' as const, description: 'payout test' };
    const key = randomUUID();
    const payouts = stack.app.get(PayoutsService);
    const [one, two] = await Promise.all([payouts.create(accountId, input, actor, key), payouts.create(accountId, input, actor, key)]);
    expect('id' in one.view && 'id' in two.view && one.view.id === two.view.id).toBe(true);
    expect([one.existing, two.existing].sort()).toEqual([false, true]);
    const out = await moneyOut(accountId);
    expect(out.payouts).toHaveLength(1);
    expect(out.entries).toHaveLength(1);
    expect(transfersSince()).toBe(1);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 3_500, reservedCents: 1_500 });
  });

  it('a confirmation of an admin request lost to a failover is confirmed again into the same payout, under the same idEnvio', async () => {
    const accountId = await fundedAccount(stack, 3 * FOUR_EYES);
    const [bob, carol] = [await newReviewer(stack, 'bob', 'admin'), await newReviewer(stack, 'carol', 'admin')];
    const asked = await stack.http.post(`/accounts/${accountId}/payouts`).set(bob.headers).send(payoutBody(FOUR_EYES));
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const requestId = asked.body.request.id as string;
    const before = await balanceOf(stack, accountId);
    const confirm = () => stack.http.post(`/accounts/${accountId}/payouts/requests/${requestId}/confirm`).set(carol.headers).send({ reason: 'the merchant asked by phone' });
    const first = await confirm();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(transfersSince()).toBe(1);
    // The confirmation's commit is lost with the payout's: the request waits for a second person again.
    await loseCommit(accountId, first.body as PayoutView, before, { requestId });

    const again = await confirm();
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.attempts).toEqual([expect.objectContaining({ id: first.body.attempts[0].id, transferId: first.body.attempts[0].transferId })]);
    expect(sendsSince()).toBe(2);
    expect(transfersSince()).toBe(1);
    expect(await moneyOut(accountId)).toEqual({ payouts: [first.body.id], entries: [`reserve ${first.body.attempts[0].id}`] });
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 2 * FOUR_EYES, reservedCents: FOUR_EYES });
  });
});
