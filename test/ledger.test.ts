import { randomUUID } from 'node:crypto';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import { LedgerAccountEntity, LedgerEntryEntity } from '@app/database';
import { InsufficientBalanceError, LedgerService, ReservationSettledError } from '@app/ledger';
import { DomainErrorFilter } from '../apps/api/src/domain-error.filter.js';
import { fundedAccount } from './support/payouts.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

describe('ledger: accounts, balances and reservations', () => {
  let stack: TestStack;
  let ledger: LedgerService;
  let merchantName: string;
  let otherToken: string;

  beforeAll(async () => {
    stack = await startTestStack();
    ledger = stack.app.get(LedgerService);
    merchantName = stack.tokenNames.merchant;
    otherToken = await stack.app.get(ApiTokenService).create(`other-merchant-${randomUUID()}`, 'merchant');
  });
  afterAll(async () => stack.close());

  async function newAccount(owner = merchantName): Promise<string> {
    const res = await stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: owner, currency: 'brl' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function fund(accountId: string, amountCents: number): Promise<void> {
    const res = await stack.http
      .post(`/accounts/${accountId}/credits`)
      .set(stack.auth('admin'))
      .set('Idempotency-Key', randomUUID())
      .send({ amountCents, reference: `fund-${randomUUID()}` });
    expect(res.status).toBe(201);
  }

  async function account(accountId: string): Promise<LedgerAccountEntity> {
    return stack.db.getRepository(LedgerAccountEntity).findOneByOrFail({ id: accountId });
  }

  it('lets an admin open an account for a merchant token, which then reads an empty balance', async () => {
    const id = await newAccount();
    const balance = await stack.http.get(`/accounts/${id}/balance`).set(stack.auth('merchant'));
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({ availableCents: 0, reservedCents: 0, owedCents: 0, currency: 'brl' });
    const entries = await stack.http.get(`/accounts/${id}/entries`).set(stack.auth('merchant'));
    expect(entries.body).toEqual({ entries: [], nextCursor: null });
  });

  it('refuses account creation to a merchant, for an unknown owner, and with a bad currency, writing nothing', async () => {
    const before = await stack.db.getRepository(LedgerAccountEntity).count();
    const byMerchant = await stack.http.post('/accounts').set(stack.auth('merchant')).send({ ownerTokenName: merchantName, currency: 'brl' });
    expect(byMerchant.status).toBe(403);
    const unknown = await stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: 'nobody-at-all', currency: 'brl' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/ownerTokenName/);
    const reviewerOwner = stack.tokenNames.reviewer;
    expect((await stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: reviewerOwner, currency: 'brl' })).status).toBe(422);
    const badCurrency = await stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: merchantName, currency: 'BRL' });
    expect(badCurrency.status).toBe(400);
    expect(JSON.stringify(badCurrency.body.message)).toContain('currency');
    expect(await stack.db.getRepository(LedgerAccountEntity).count()).toBe(before);
  });

  it("answers 404 to a merchant token reading another merchant's account, exactly as for no account", async () => {
    const id = await newAccount();
    await fund(id, 500);
    const other = { Authorization: `Bearer ${otherToken}` };
    for (const path of [`/accounts/${id}`, `/accounts/${id}/balance`, `/accounts/${id}/entries`]) {
      const res = await stack.http.get(path).set(other);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('account_not_found');
      // The balance must not leak; the id itself may hold the digits "500", so it is left out of the search.
      expect(JSON.stringify(res.body).replaceAll(id, '')).not.toContain('500');
    }
    expect((await stack.http.get(`/accounts/${id}/balance`).set(stack.auth('merchant'))).status).toBe(200);
    expect((await stack.http.get(`/accounts/${id}/balance`).set(stack.auth('admin'))).status).toBe(200);
    expect((await stack.http.get(`/accounts/${randomUUID()}/balance`).set(stack.auth('merchant'))).status).toBe(404);
    const credit = await stack.http.post(`/accounts/${id}/credits`).set(other).set('Idempotency-Key', randomUUID()).send({ amountCents: 1, reference: 'x' });
    expect(credit.status).toBe(403);
    expect((await account(id)).availableCents).toBe(500);
  });

  it('funds an account once per Idempotency-Key and once per reference', async () => {
    const id = await newAccount();
    const post = (key: string | null, body: Record<string, unknown>) => {
      const req = stack.http.post(`/accounts/${id}/credits`).set(stack.auth('admin'));
      return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
    };
    const missing = await post(null, { amountCents: 100, reference: 'r0' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/Idempotency-Key/);
    const badAmount = await post(randomUUID(), { amountCents: 1.5, reference: 'r0' });
    expect(badAmount.status).toBe(400);
    expect(JSON.stringify(badAmount.body.message)).toContain('amountCents');

    const key = randomUUID();
    const first = await post(key, { amountCents: 1000, reference: 'wire-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ replayed: false, entry: { kind: 'credit', amountCents: 1000, reference: 'wire-1' }, balance: { availableCents: 1000 } });
    const again = await post(key, { amountCents: 1000, reference: 'wire-1' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await post(key, { amountCents: 2000, reference: 'wire-1' })).status).toBe(422);
    // The same key and body sent to another account is another request.
    const elsewhere = await stack.http.post(`/accounts/${await newAccount()}/credits`).set(stack.auth('admin')).set('Idempotency-Key', key).send({ amountCents: 1000, reference: 'wire-1' });
    expect(elsewhere.status).toBe(422);

    const sameReference = await post(randomUUID(), { amountCents: 1000, reference: 'wire-1' });
    expect(sameReference.status).toBe(200);
    expect(sameReference.body).toMatchObject({ replayed: true, entry: { id: first.body.entry.id }, balance: { availableCents: 1000 } });
    const reused = await post(randomUUID(), { amountCents: 999, reference: 'wire-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('ledger_reference_reused');

    // Ten concurrent deliveries of one new funding: the money moves once.
    const storm = await Promise.all(Array.from({ length: 10 }, () => post(key.replace(/.$/, 'x'), { amountCents: 500, reference: 'wire-2' })));
    expect(storm.every((res) => [200, 201, 409].includes(res.status))).toBe(true);
    expect((await account(id)).availableCents).toBe(1500);
    expect(await stack.db.getRepository(LedgerEntryEntity).countBy({ accountId: id })).toBe(2);
  });

  it('refuses with 422 amount_too_large a credit that would take a balance past 2^53 - 1, changing nothing', async () => {
    const nearlyFull = Number.MAX_SAFE_INTEGER - 500;
    const id = await fundedAccount(stack, nearlyFull);
    const res = await stack.http.post(`/accounts/${id}/credits`).set(stack.auth('admin')).set('Idempotency-Key', randomUUID()).send({ amountCents: 1000, reference: `over-${randomUUID()}` });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ code: 'amount_too_large', details: { field: 'amountCents' } });
    const account = await stack.db.getRepository(LedgerAccountEntity).findOneByOrFail({ id });
    expect(account.availableCents).toBe(nearlyFull);
    expect(await stack.db.getRepository(LedgerEntryEntity).countBy({ accountId: id })).toBe(1);
  });

  it('lets exactly 10 of 100 concurrent reservations through on an account funded for 10, never going negative', async () => {
    const id = await newAccount();
    await fund(id, 10 * 1000);
    let sampling = true;
    let lowest = Number.POSITIVE_INFINITY;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await stack.db.query<Array<{ a: string; r: string }>>(`SELECT available_cents a, reserved_cents r FROM ledger_accounts WHERE id = $1`, [id]);
        lowest = Math.min(lowest, Number(row.a), Number(row.r));
      }
    })();
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => stack.db.transaction((em) => ledger.reserve(em, id, 1000, `payout-attempt-${i}`))),
    );
    sampling = false;
    await sampler;

    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const error of refused) {
      expect(error).toBeInstanceOf(InsufficientBalanceError);
      expect((error as InsufficientBalanceError).details).toMatchObject({ availableCents: 0, requestedCents: 1000, currency: 'brl' });
      expect((error as Error).message).toContain('0 brl cents available');
    }
    expect(lowest).toBeGreaterThanOrEqual(0);
    const final = await account(id);
    expect({ available: final.availableCents, reserved: final.reservedCents }).toEqual({ available: 0, reserved: 10_000 });
    expect(await stack.db.getRepository(LedgerEntryEntity).countBy({ accountId: id, kind: 'reserve' })).toBe(10);
    await expectBalanceIsSumOfEntries(id);
    // The database itself refuses a negative balance, whatever code writes it.
    await expect(stack.db.query(`UPDATE ledger_accounts SET available_cents = -1 WHERE id = $1`, [id])).rejects.toMatchObject({
      driverError: { code: '23514', constraint: 'ledger_accounts_balance_check' },
    });
  });

  it('maps a refused reservation to 422 naming the available balance', () => {
    const sent: { status?: number; body?: Record<string, unknown> } = {};
    const adapterHost = { httpAdapter: { reply: (_: unknown, b: Record<string, unknown>, s: number) => Object.assign(sent, { body: b, status: s }) } } as unknown as HttpAdapterHost;
    const host = { switchToHttp: () => ({ getResponse: () => ({}) }) } as unknown as ArgumentsHost;
    new DomainErrorFilter(adapterHost).catch(new InsufficientBalanceError('acc', 700, 1000, 'brl'), host);
    expect(sent.status).toBe(422);
    expect(sent.body).toMatchObject({ code: 'insufficient_balance', details: { availableCents: 700 } });
    expect(sent.body?.message).toContain('700 brl cents available');
  });

  it('releases and debits a reservation exactly once under concurrent duplicate calls', async () => {
    const id = await newAccount();
    await fund(id, 3000);
    for (const ref of ['a', 'b', 'c']) await stack.db.transaction((em) => ledger.reserve(em, id, 1000, ref));

    const releases = await Promise.all(Array.from({ length: 20 }, () => stack.db.transaction((em) => ledger.release(em, id, 'a'))));
    expect(releases.filter((m) => !m.replayed)).toHaveLength(1);
    expect(new Set(releases.map((m) => m.entry.id)).size).toBe(1);

    const debits = await Promise.all(Array.from({ length: 20 }, () => stack.db.transaction((em) => ledger.debit(em, id, 'b'))));
    expect(debits.filter((m) => !m.replayed)).toHaveLength(1);

    // A release racing a debit of the same reservation: one way wins, the other is refused, nothing moves twice.
    const mixed = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => stack.db.transaction((em) => (i % 2 ? ledger.release(em, id, 'c') : ledger.debit(em, id, 'c')))),
    );
    const applied = mixed.filter((r) => r.status === 'fulfilled' && !r.value.replayed);
    expect(applied).toHaveLength(1);
    for (const r of mixed) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ReservationSettledError);

    const settled = (applied[0] as PromiseFulfilledResult<{ entry: { kind: string } }>).value.entry.kind;
    const final = await account(id);
    expect(final.reservedCents).toBe(0);
    expect(final.availableCents).toBe(settled === 'release' ? 2000 : 1000);
    await expectBalanceIsSumOfEntries(id);
  });

  it('debits a late payout once while reservations race it: available covers what it can, the rest is owed, and nothing is reserved while it owes', async () => {
    const id = await newAccount();
    await fund(id, 1000);
    await stack.db.transaction((em) => ledger.reserve(em, id, 600, 'failed-payout'));
    await stack.db.transaction((em) => ledger.release(em, id, 'failed-payout'));
    let sampling = true;
    let lowest = Number.POSITIVE_INFINITY;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await stack.db.query<Array<{ a: string; r: string; o: string }>>(`SELECT available_cents a, reserved_cents r, owed_cents o FROM ledger_accounts WHERE id = $1`, [id]);
        lowest = Math.min(lowest, Number(row.a), Number(row.r), Number(row.o));
      }
    })();
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, i) => stack.db.transaction((em) => ledger.reserve(em, id, 100, `payout-${i}`))),
      ...Array.from({ length: 5 }, () => stack.db.transaction((em) => ledger.lateDebit(em, id, 'failed-payout', 600))),
    ]);
    sampling = false;
    await sampler;

    const late = results.slice(20).map((r) => (r as PromiseFulfilledResult<{ replayed: boolean; entry: { owedAfterCents: number } }>).value);
    expect(late.filter((m) => !m.replayed)).toHaveLength(1);
    const reserved = results.slice(0, 20).filter((r) => r.status === 'fulfilled').length;
    const final = await account(id);
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(final.reservedCents).toBe(reserved * 100);
    // 1 000 in, 600 gone late: whatever the interleaving, available + reserved − owed = 400, and owed only when available is 0.
    expect(final.availableCents + final.reservedCents - final.owedCents).toBe(400);
    if (final.owedCents > 0) expect(final.availableCents).toBe(0);
    const [{ after }] = await stack.db.query<Array<{ after: number }>>(
      `SELECT count(*)::int AS after FROM ledger_entries WHERE account_id = $1 AND kind = 'reserve' AND owed_after_cents > 0`,
      [id],
    );
    expect(after).toBe(0);
    await expectBalanceIsSumOfEntries(id);
    await expect(stack.db.query(`UPDATE ledger_accounts SET owed_cents = -1 WHERE id = $1`, [id])).rejects.toMatchObject({
      driverError: { code: '23514', constraint: 'ledger_accounts_owed_check' },
    });
  });

  it('writes nothing when the caller’s transaction rolls back after a reservation', async () => {
    const id = await newAccount();
    await fund(id, 1000);
    await expect(
      stack.db.transaction(async (em) => {
        await ledger.reserve(em, id, 400, 'rolled-back');
        throw new Error('the attempt insert failed');
      }),
    ).rejects.toThrow('the attempt insert failed');
    const after = await account(id);
    expect({ a: after.availableCents, r: after.reservedCents }).toEqual({ a: 1000, r: 0 });
    expect(await stack.db.getRepository(LedgerEntryEntity).countBy({ accountId: id, reference: 'rolled-back' })).toBe(0);
  });

  it('pages entries oldest first by cursor, and keeps them append-only', async () => {
    const id = await newAccount();
    for (let i = 0; i < 5; i++) await fund(id, 100 + i);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const query: Record<string, string | number> = after ? { limit: 2, after } : { limit: 2 };
      const res: { status: number; body: { entries: Array<{ id: string }>; nextCursor: string | null } } = await stack.http.get(`/accounts/${id}/entries`).query(query).set(stack.auth('merchant'));
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e) => e.id));
      after = res.body.nextCursor;
    } while (after);
    expect(seen).toHaveLength(5);
    expect([...seen].sort((x, y) => Number(x) - Number(y))).toEqual(seen);
    expect((await stack.http.get(`/accounts/${id}/entries?limit=500`).set(stack.auth('merchant'))).status).toBe(400);
    expect((await stack.http.get(`/accounts/${id}/entries?after=abc`).set(stack.auth('merchant'))).status).toBe(400);
    await expect(stack.db.query(`UPDATE ledger_entries SET amount_cents = 1 WHERE account_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(stack.db.query(`DELETE FROM ledger_entries WHERE account_id = $1`, [id])).rejects.toThrow(/append-only/);
  });

  /** Money in repays what is owed first, so the entries give available − owed (and the last entry, owed itself). */
  async function expectBalanceIsSumOfEntries(accountId: string): Promise<void> {
    const [sums] = await stack.db.query<Array<{ spendable: string; reserved: string; owed: string | null }>>(
      `SELECT coalesce(sum(CASE kind WHEN 'credit' THEN amount_cents WHEN 'reserve' THEN -amount_cents WHEN 'release' THEN amount_cents WHEN 'late_debit' THEN -amount_cents ELSE 0 END), 0) AS spendable,
              coalesce(sum(CASE kind WHEN 'reserve' THEN amount_cents WHEN 'release' THEN -amount_cents WHEN 'debit' THEN -amount_cents ELSE 0 END), 0) AS reserved,
              (SELECT owed_after_cents FROM ledger_entries WHERE account_id = $1 ORDER BY id DESC LIMIT 1) AS owed
         FROM ledger_entries WHERE account_id = $1`,
      [accountId],
    );
    const row = await account(accountId);
    expect({ spendable: row.availableCents - row.owedCents, reserved: row.reservedCents, owed: row.owedCents }).toEqual({
      spendable: Number(sums.spendable),
      reserved: Number(sums.reserved),
      owed: Number(sums.owed ?? 0),
    });
  }
});
