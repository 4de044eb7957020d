import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EfiPixGateway } from '@app/gateways';
import { addDays, dayOf } from '@app/reconciliation';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { balanceOf, fundedAccount, payoutBody } from './support/payouts.js';
import { reconcile } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const WEBHOOK_HMAC = 'efi-webhook-hmac-for-payout-returns-0123';

/**
 * Issue 35, part 4: a Pix we sent can come back (Efí lists it in the sent Pix's `devolucoes`, under BACEN's
 * rtrId). Read as nothing, the money was in our account again while the ledger still said it had left. Now the
 * nightly run credits each return of a transfer of ours once, the payout view says so, and a return we cannot
 * place (no transfer of ours; more back than our payout sent) is a divergence and a review item, never a credit.
 * Own database and Efí simulator.
 */
describe('returned Pix payouts', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let accountId: string;
  const today = dayOf(new Date(), 'UTC');
  const idEnvio = (attemptId: string) => attemptId.replace(/-/g, '');
  const planted = {} as { returned: { id: string; attemptId: string }; rtrIds: string[]; overReturned: { id: string; attemptId: string }; foreignRtr: string };

  async function paidPayout(amountCents: number): Promise<{ id: string; attemptId: string }> {
    const res = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', randomUUID()).send(payoutBody(amountCents));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attemptId = res.body.attempts[0].id as string;
    efi.settle(idEnvio(attemptId), 'REALIZADO');
    await efi.webhooksIdle();
    await waitFor(
      async () => (await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status,
      (status) => status === 'succeeded',
      10_000,
      `payout ${res.body.id} paid`,
    );
    return { id: res.body.id as string, attemptId };
  }

  const payoutView = async (id: string) => (await stack.http.get(`/payouts/${id}`).set(stack.auth('merchant'))).body as { status: string; returnedCents: number; returns: Array<{ rtrId: string; amountCents: number }> };
  const creditsOf = (reference: string) => stack.db.query<Array<{ amount_cents: string }>>(`SELECT amount_cents FROM ledger_entries WHERE kind = 'credit' AND reference = $1`, [reference]);

  beforeAll(async () => {
    efi = await startEfiSimulator({ settleAfterMs: null });
    stack = await startTestStack({ reconciliationDaysLater: 1, efi, reconciliationRuns: true, env: { DATABASE_URL: await scratchDatabase('payout_returns'), RECONCILIATION_TZ: 'UTC', EFI_WEBHOOK_HMAC: WEBHOOK_HMAC } });
    efi.configure({ webhook: { url: `${stack.baseUrl}/webhooks/efi?hmac=${WEBHOOK_HMAC}&ignorar=` } });
    accountId = await fundedAccount(stack, 100_000);

    planted.returned = await paidPayout(1_000);
    // A second apart: the view lists returns by when they came back (ties by the random rtrId).
    const first = efi.returnPix(idEnvio(planted.returned.attemptId), 300, new Date(Date.now() - 1_000)).rtrId;
    planted.rtrIds = [first, efi.returnPix(idEnvio(planted.returned.attemptId), 200).rtrId];

    // Our record says 300 was sent, the provider sent (and had returned) 500: more back than our payout sent.
    planted.overReturned = await paidPayout(500);
    await stack.db.query(`UPDATE payouts SET amount_cents = 300 WHERE id = $1`, [planted.overReturned.id]);
    efi.returnPix(idEnvio(planted.overReturned.attemptId), 500);

    // Sent from the account by no payout of ours, then returned.
    const foreign = `manual${randomBytes(8).toString('hex')}`;
    const sender = new EfiPixGateway({ apiBase: efi.apiUrl, clientId: 'efi_simulator_client', clientSecret: 'efi_simulator_secret', payerPixKey: 'payouts@charge-once.example', connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });
    expect(await sender.sendPix(foreign, sender.encodePixSend({ attemptId: randomUUID(), amountCents: 700, currency: 'brl', payeePixKey: 'someone@example.com.br' }))).toMatchObject({ httpStatus: 201 });
    efi.settle(foreign, 'REALIZADO');
    await efi.webhooksIdle();
    planted.foreignRtr = efi.returnPix(foreign, 700).rtrId;
    expect(efi.stats().returns).toBe(4);
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  it('credits each return of our transfer once, and the payout shows what came back while staying paid', async () => {
    const before = await balanceOf(stack, accountId);
    const run = await reconcile(stack, today, 'api', 'efi');
    const after = await balanceOf(stack, accountId);
    expect(after.availableCents - before.availableCents).toBe(500);
    for (const [rtrId, cents] of [[planted.rtrIds[0], 300], [planted.rtrIds[1], 200]] as const) {
      expect(await creditsOf(`pix_return:efi:${rtrId}`)).toEqual([{ amount_cents: String(cents) }]);
    }
    const view = await payoutView(planted.returned.id);
    expect(view).toMatchObject({ status: 'succeeded', returnedCents: 500 });
    expect(view.returns.map((r) => [r.rtrId, r.amountCents])).toEqual([[planted.rtrIds[0], 300], [planted.rtrIds[1], 200]]);
    const rows = await stack.db.query<Array<{ run_id: string }>>(`SELECT run_id FROM payout_returns WHERE payout_id = $1`, [planted.returned.id]);
    expect(rows.map((r) => r.run_id)).toEqual([run.id, run.id]);

    // The day read again: the same returns are known, nothing is credited twice.
    await reconcile(stack, today, 'api', 'efi');
    expect((await balanceOf(stack, accountId)).availableCents).toBe(after.availableCents);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM payout_returns`)).toEqual([{ n: 2 }]);
  });

  it('puts a return it cannot place to a person, with evidence, and credits nothing for it', async () => {
    const run = await reconcile(stack, today, 'api', 'efi');
    const res = await stack.http.get(`/reconciliation/divergences?runId=${run.id}&limit=100`).set(stack.auth('admin'));
    const unmatched = (res.body.items as Array<{ kind: string; payoutId: string | null; attemptId: string | null; amountCents: number; detail: Record<string, unknown> }>).filter((d) => d.kind === 'pix_return_unmatched');
    expect(unmatched).toHaveLength(2);
    const over = unmatched.find((d) => d.payoutId === planted.overReturned.id)!;
    expect(over).toMatchObject({ attemptId: planted.overReturned.attemptId, amountCents: 500, detail: { why: expect.stringContaining('more than the 300 sent') } });
    const foreign = unmatched.find((d) => d.payoutId === null)!;
    expect(foreign).toMatchObject({ amountCents: 700, detail: { rtrId: planted.foreignRtr, why: 'no payout attempt of ours sent this Pix' } });

    const items = await stack.db.query<Array<{ reason: string; evidence: { findings: { why: string; amountCents: number }; laterFindings?: unknown[] } }>>(
      `SELECT reason, evidence FROM review_items WHERE attempt_id = $1 AND state <> 'closed'`,
      [planted.overReturned.attemptId],
    );
    expect(items).toHaveLength(1);
    expect(items[0].reason).toBe('pix_return_unmatched');
    expect(items[0].evidence.findings).toMatchObject({ amountCents: 500 });
    // Three runs read it; a person was asked once.
    expect(items[0].evidence.laterFindings ?? []).toEqual([]);
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM payout_returns WHERE payout_id = $1`, [planted.overReturned.id])).toEqual([{ n: 0 }]);
    expect(await creditsOf(`pix_return:efi:${planted.foreignRtr}`)).toEqual([]);
    // The transfer left; what is in doubt is the return, so the payout stays paid and shows nothing back.
    expect(await payoutView(planted.overReturned.id)).toMatchObject({ status: 'succeeded', returnedCents: 0, returns: [] });
  });

  it("credits a return that came after its transfer's day was reconciled at the next day's run, without running that day again", async () => {
    const yesterday = addDays(today, -1);
    const late = await paidPayout(800);
    // Sent yesterday (our attempt and Efí's transfer alike), and reconciled then with nothing back yet.
    efi.backdateTransfer(idEnvio(late.attemptId), new Date(`${yesterday}T12:00:00Z`));
    await stack.db.query(`UPDATE attempts SET created_at = $2 WHERE id = $1`, [late.attemptId, `${yesterday}T12:00:00Z`]);
    await reconcile(stack, yesterday, 'api', 'efi');
    expect(await payoutView(late.id)).toMatchObject({ returnedCents: 0 });
    const before = await balanceOf(stack, accountId);

    const { rtrId } = efi.returnPix(idEnvio(late.attemptId), 300);
    await reconcile(stack, today, 'api', 'efi');
    expect(await creditsOf(`pix_return:efi:${rtrId}`)).toEqual([{ amount_cents: '300' }]);
    expect(await payoutView(late.id)).toMatchObject({ status: 'succeeded', returnedCents: 300, returns: [{ rtrId, amountCents: 300 }] });
    expect((await balanceOf(stack, accountId)).availableCents).toBe(before.availableCents + 300);
    // Yesterday's run again, and today's: still one credit.
    await reconcile(stack, yesterday, 'api', 'efi');
    await reconcile(stack, today, 'api', 'efi');
    expect(await creditsOf(`pix_return:efi:${rtrId}`)).toHaveLength(1);
  });
});
