import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { merchantTokenName, payoutBody } from './support/payouts.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * `POST /accounts` takes the ISO 4217 check `POST /charges` has (libs/common/src/iso-currency.ts): a code that
 * names no money is refused with 422 naming the field, and nothing is written. A currency Pix does not move is
 * still an account's to hold (the ledger is not Pix's): its payouts are refused when asked, before anything is
 * reserved or sent.
 */
describe('account currencies', () => {
  let stack: TestStack;
  let efi: EfiSimulator;
  beforeAll(async () => {
    efi = await startEfiSimulator();
    stack = await startTestStack({ efi });
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  const open = (currency: string) => stack.http.post('/accounts').set(stack.auth('admin')).send({ ownerTokenName: merchantTokenName(stack), currency });

  /** Every row an account's creation, funding or payout would write. */
  async function written(): Promise<Record<string, number>> {
    const [counts] = await stack.db.query<Array<Record<string, number>>>(
      `SELECT (SELECT count(*)::int FROM ledger_accounts) AS accounts, (SELECT count(*)::int FROM ledger_entries) AS entries,
              (SELECT count(*)::int FROM payouts) AS payouts, (SELECT count(*)::int FROM attempts) AS attempts,
              (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM idempotency_records) AS idempotency`,
    );
    return counts;
  }

  it.each(['xxx', 'xts', 'xau', 'xag', 'xpt', 'xpd', 'xdr', 'abc'])('refuses %s, not ISO money, with 422 account_currency_not_supported naming currency, writing nothing', async (currency) => {
    const before = await written();
    const res = await open(currency);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ code: 'account_currency_not_supported', details: { field: 'currency', currency, reason: 'not_iso_money' } });
    expect(res.body.message).toContain(currency);
    expect(await written()).toEqual(before);
  });

  it('opens accounts in ISO money, and refuses a usd account\'s payout at payout time, reserving and sending nothing', async () => {
    for (const currency of ['brl', 'usd', 'jpy']) {
      const res = await open(currency);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ currency, availableCents: 0 });
    }
    const usd = (await open('usd')).body.id as string;
    const credit = await stack.http.post(`/accounts/${usd}/credits`).set(stack.auth('admin')).set('Idempotency-Key', randomUUID()).send({ amountCents: 5_000, reference: `wire-${randomUUID()}` });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);
    const before = await written();
    const sends = efi.stats().requests.sends;
    const payout = await stack.http.post(`/accounts/${usd}/payouts`).set(stack.auth('merchant')).send(payoutBody(1_000));
    expect(payout.status, JSON.stringify(payout.body)).toBe(422);
    expect(payout.body).toMatchObject({ code: 'payout_currency_unsupported', details: { accountId: usd, currency: 'usd', provider: 'efi' } });
    expect(await written()).toEqual(before);
    expect(efi.stats().requests.sends).toBe(sends);
    expect((await stack.http.get(`/accounts/${usd}/balance`).set(stack.auth('merchant'))).body).toMatchObject({ availableCents: 5_000, reservedCents: 0, currency: 'usd' });
  });
});
