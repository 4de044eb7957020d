import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { balanceOf, fundedAccount, payoutBody } from './support/payouts.js';
import { newReviewer, type Reviewer } from './support/review.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 36, item 7: a payout an admin sends from a merchant's account at or above REVIEW_FOUR_EYES_AMOUNT_CENTS
 * waits for a second person (the four-eyes store large credits use); below it, it goes ahead recording the admin's
 * name; the owning merchant's payouts are unchanged. Real api, PostgreSQL, Redis and the Efí simulator, whose
 * counters prove what was sent.
 */
const FOUR_EYES = 50_000;

describe('admin payouts and four eyes', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let base: ReturnType<EfiSimulator['stats']>;
  beforeAll(async () => {
    efi = await startEfiSimulator({ hangMs: 1_500 });
    stack = await startTestStack({ efi, env: { REVIEW_FOUR_EYES_AMOUNT_CENTS: String(FOUR_EYES) } });
  });
  afterAll(async () => {
    await stack.close();
    await efi.close();
  });
  beforeEach(() => {
    base = efi.stats();
  });
  const transfersSince = () => efi.stats().transfersCreated - base.transfersCreated;
  const payoutsOf = async (accountId: string) =>
    (await stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM payouts WHERE account_id = $1`, [accountId]))[0].n;
  const ask = (accountId: string, who: Reviewer, amountCents: number) => stack.http.post(`/accounts/${accountId}/payouts`).set(who.headers).send(payoutBody(amountCents));
  const confirm = (accountId: string, requestId: string, who: Reviewer) =>
    stack.http.post(`/accounts/${accountId}/payouts/requests/${requestId}/confirm`).set(who.headers).send({ reason: 'the merchant asked by phone' });

  it('at or above the amount an admin only asks: the same person is refused, another person sends it once, a second confirm is refused', async () => {
    const accountId = await fundedAccount(stack, 200_000);
    const [bob, carol, dave] = [await newReviewer(stack, 'bob', 'admin'), await newReviewer(stack, 'carol', 'admin'), await newReviewer(stack, 'dave', 'admin')];

    const asked = await ask(accountId, bob, 60_000);
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body.request).toMatchObject({ kind: 'payout', amountCents: 60_000, requestedBy: bob.name, state: 'awaiting_second', confirmedBy: null });
    const requestId = asked.body.request.id as string;
    // Nothing reserved, nothing stored as a payout, nothing sent before a second person confirms.
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 200_000, reservedCents: 0 });
    expect(await payoutsOf(accountId)).toBe(0);
    expect(transfersSince()).toBe(0);

    const self = await confirm(accountId, requestId, bob);
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('payout_self_confirmation');
    // A merchant cannot confirm, and the request is not found on another account.
    expect((await stack.http.post(`/accounts/${accountId}/payouts/requests/${requestId}/confirm`).set(stack.auth('merchant')).send({ reason: 'me' })).status).toBe(403);
    const elsewhere = await confirm(await fundedAccount(stack, 0), requestId, carol);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('payout_request_not_found');
    expect(transfersSince()).toBe(0);
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: 200_000, reservedCents: 0 });

    const sent = await confirm(accountId, requestId, carol);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ accountId, amountCents: 60_000 });
    expect(transfersSince()).toBe(1);
    const [audit] = await stack.db.query(
      `SELECT r.state, r.requested_by, r.confirmed_by, r.confirm_reason, r.payout_id, p.created_by
         FROM ledger_credit_requests r JOIN payouts p ON p.id = r.payout_id WHERE r.id = $1`,
      [requestId],
    );
    expect(audit).toEqual({ state: 'confirmed', requested_by: bob.name, confirmed_by: carol.name, confirm_reason: 'the merchant asked by phone', payout_id: sent.body.id, created_by: bob.name });

    for (const who of [carol, dave]) {
      const again = await confirm(accountId, requestId, who);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('payout_request_confirmed');
    }
    expect(await payoutsOf(accountId)).toBe(1);
    expect(transfersSince()).toBe(1);
  });

  it('two people confirming one request at once open one payout; a balance short at confirm time is the usual 422 and reserves nothing', async () => {
    const accountId = await fundedAccount(stack, 100_000);
    const [bob, carol, dave] = [await newReviewer(stack, 'bob', 'admin'), await newReviewer(stack, 'carol', 'admin'), await newReviewer(stack, 'dave', 'admin')];
    const first = (await ask(accountId, bob, 70_000)).body.request.id as string;
    const second = (await ask(accountId, bob, 70_000)).body.request.id as string;
    expect(second).not.toBe(first);

    const raced = await Promise.all([confirm(accountId, first, carol), confirm(accountId, first, dave)]);
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(transfersSince()).toBe(1);

    // 30 000 left: the second asked payout no longer fits when it is confirmed.
    const short = await confirm(accountId, second, carol);
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ code: 'insufficient_balance', details: { availableCents: 30_000, requestedCents: 70_000 } });
    const [waiting] = await stack.db.query(`SELECT state, confirmed_by, payout_id FROM ledger_credit_requests WHERE id = $1`, [second]);
    expect(waiting).toEqual({ state: 'awaiting_second', confirmed_by: null, payout_id: null });
    expect(await payoutsOf(accountId)).toBe(1);
    expect(transfersSince()).toBe(1);
    expect((await balanceOf(stack, accountId)).availableCents).toBe(30_000);
  });

  it("below the amount an admin's payout goes ahead and records the admin's name; the owning merchant is never asked for a second person", async () => {
    const accountId = await fundedAccount(stack, 200_000);
    const bob = await newReviewer(stack, 'bob', 'admin');
    const small = await ask(accountId, bob, FOUR_EYES - 1);
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    const [payout] = await stack.db.query(`SELECT created_by FROM payouts WHERE id = $1`, [small.body.id]);
    expect(payout.created_by).toBe(bob.name);
    const [reserve] = await stack.db.query(`SELECT e.created_by FROM ledger_entries e JOIN attempts a ON a.id::text = e.reference WHERE a.payout_id = $1 AND e.kind = 'reserve'`, [small.body.id]);
    expect(reserve.created_by).toBe(bob.name);
    expect(transfersSince()).toBe(1);

    const merchant = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', randomUUID()).send(payoutBody(FOUR_EYES * 2));
    expect(merchant.status, JSON.stringify(merchant.body)).toBe(201);
    expect(merchant.body).toMatchObject({ accountId, amountCents: FOUR_EYES * 2 });
    expect(transfersSince()).toBe(2);
    expect(await stack.db.query(`SELECT id FROM ledger_credit_requests WHERE account_id = $1 AND kind = 'payout'`, [accountId])).toEqual([]);
  });
  it('the confirming admin reads what a request would send (Pix key, amount, description); merchants cannot, another account has none', async () => {
    const accountId = await fundedAccount(stack, 200_000);
    const [bob, carol] = [await newReviewer(stack, 'bob', 'admin'), await newReviewer(stack, 'carol', 'admin')];
    const asked = await ask(accountId, bob, 70_000);
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const requestId = asked.body.request.id as string;

    const one = await stack.http.get(`/accounts/${accountId}/payouts/requests/${requestId}`).set(carol.headers);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ id: requestId, kind: 'payout', amountCents: 70_000, pixKey: 'payee@example.com.br', pixKeyType: 'email', description: 'payout test', requestedBy: bob.name, state: 'awaiting_second', payoutId: null });
    const list = await stack.http.get(`/accounts/${accountId}/payouts/requests`).set(carol.headers);
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: string; pixKey: string }) => [r.id, r.pixKey])).toEqual([[requestId, 'payee@example.com.br']]);

    expect((await stack.http.get(`/accounts/${accountId}/payouts/requests/${requestId}`).set(stack.auth('merchant'))).status).toBe(403);
    expect((await stack.http.get(`/accounts/${accountId}/payouts/requests`).set(stack.auth('merchant'))).status).toBe(403);
    const elsewhere = await stack.http.get(`/accounts/${await fundedAccount(stack, 0)}/payouts/requests/${requestId}`).set(carol.headers);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('payout_request_not_found');

    expect((await confirm(accountId, requestId, carol)).status).toBe(201);
    const confirmed = await stack.http.get(`/accounts/${accountId}/payouts/requests/${requestId}`).set(bob.headers);
    expect(confirmed.body).toMatchObject({ state: 'confirmed', confirmedBy: carol.name });
    expect(confirmed.body.payoutId).toEqual(expect.any(String));
  });

  it('an admin request with an Idempotency-Key is one request: replayed, found again after its stored response was lost, another body 422', async () => {
    const accountId = await fundedAccount(stack, 200_000);
    const bob = await newReviewer(stack, 'bob', 'admin');
    const key = `ask-${randomUUID()}`;
    const post = (body: Record<string, unknown>) => stack.http.post(`/accounts/${accountId}/payouts`).set(bob.headers).set('Idempotency-Key', key).send(body);

    const first = await post(payoutBody(60_000));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const again = await post(payoutBody(60_000));
    expect(again.status).toBe(202);
    expect(again.body.request.id).toBe(first.body.request.id);
    expect((await post(payoutBody(60_001))).status).toBe(422);

    // The ask committed but its response was never stored (the process died): the key still names the same request.
    await stack.db.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);
    const retried = await post(payoutBody(60_000));
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.body.request.id).toBe(first.body.request.id);
    await stack.db.query(`DELETE FROM idempotency_records WHERE key = $1`, [key]);
    const otherPayee = await post(payoutBody(60_000, { pixKey: 'someone-else@example.com.br' }));
    expect(otherPayee.status).toBe(422);
    expect(otherPayee.body.code).toBe('ledger_reference_reused');
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM ledger_credit_requests WHERE account_id = $1 AND kind = 'payout'`, [accountId])).toEqual([{ n: 1 }]);
    expect(transfersSince()).toBe(0);
  });
});
