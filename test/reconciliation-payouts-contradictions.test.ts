import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderFactApplier } from '@app/attempts';
import { EfiPixGateway } from '@app/gateways';
import { dayOf } from '@app/reconciliation';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { attemptStatus, balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { reconcile } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const WEBHOOK_HMAC = 'efi-webhook-hmac-for-tests-0123456789';

/**
 * Executed transfers that contradict a terminal payout attempt: the statement must classify them by the transfer
 * (not by the attempt it names) and put each before a person through the one applier, with the line as evidence,
 * without ever moving the terminal status or the ledger. No worker runs; webhooks are off while the
 * contradictions happen, so only the statement can reveal them.
 */
describe('reconciliation of Pix transfers that contradict a terminal payout attempt', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let accountId: string;
  const today = dayOf(new Date(), 'UTC');
  const idEnvio = (attemptId: string) => attemptId.replace(/-/g, '');
  const transferBy = (id: string) => efi.transfers().find((t) => t.idEnvio === id);
  const webhooksTo = (on: boolean) => efi.configure({ webhook: { url: on ? `${stack.baseUrl}/webhooks/efi?hmac=${WEBHOOK_HMAC}&ignorar=` : null } });

  /** Same attempt, second transfer: its idEnvio in upper case, which Efí treats as another transfer and we read as the same attempt. */
  let twice: { payoutId: string; attemptId: string; firstE2e: string; secondE2e: string; secondIdEnvio: string };
  /** Sent after our resolver had failed the attempt and released its money. */
  let late: { payoutId: string; attemptId: string; e2e: string };

  async function payout(amountCents: number): Promise<{ id: string; attemptId: string; status: string }> {
    const res = await stack.http.post(`/accounts/${accountId}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', randomUUID()).send(payoutBody(amountCents));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id as string, attemptId: res.body.attempts[0].id as string, status: res.body.attempts[0].status as string };
  }

  const reviewItemsOf = (attemptId: string) =>
    stack.db.query<Array<{ reason: string; state: string; evidence: { findings: Record<string, unknown>; laterFindings?: unknown[] } }>>(
      `SELECT reason, state, evidence FROM review_items WHERE attempt_id = $1`,
      [attemptId],
    );

  beforeAll(async () => {
    efi = await startEfiSimulator({ settleAfterMs: null, hangMs: 1_500 });
    const databaseUrl = await scratchDatabase('reconciliation_payout_contradictions');
    stack = await startTestStack({ reconciliationDaysLater: 1, efi, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', EFI_WEBHOOK_HMAC: WEBHOOK_HMAC } });
    accountId = await fundedAccount(stack, 100_000);

    // A payout that succeeded (webhook), then a second transfer naming the same attempt in upper case.
    webhooksTo(true);
    const paid = await payout(2_000);
    efi.settle(idEnvio(paid.attemptId), 'REALIZADO');
    await efi.webhooksIdle();
    await waitFor(() => attemptStatus(stack, paid.attemptId), (s) => s === 'succeeded', 10_000, 'the first transfer to succeed');
    webhooksTo(false);
    const sender = new EfiPixGateway({ apiBase: efi.apiUrl, clientId: 'efi_simulator_client', clientSecret: 'efi_simulator_secret', payerPixKey: 'payouts@charge-once.example', connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });
    const upper = idEnvio(paid.attemptId).toUpperCase();
    const body = sender.encodePixSend({ attemptId: paid.attemptId, amountCents: 2_000, currency: 'brl', payeePixKey: 'payee@example.com.br' });
    expect(await sender.sendPix(upper, body)).toMatchObject({ kind: 'response', httpStatus: 201 });
    efi.settle(upper, 'REALIZADO');
    expect(efi.transfers().filter((t) => t.idEnvio.toLowerCase() === idEnvio(paid.attemptId))).toHaveLength(2);
    twice = { payoutId: paid.id, attemptId: paid.attemptId, firstE2e: transferBy(idEnvio(paid.attemptId))!.endToEndId, secondE2e: transferBy(upper)!.endToEndId, secondIdEnvio: upper };

    // Fault: the provider executes the Pix only after we gave up on the response; the resolver, which looked it up
    // before it existed, has failed the attempt and released the money (through the one applier, as it does).
    efi.setFaults({ rules: [{ fault: 'create_late', times: 1 }] });
    const lost = await payout(3_000);
    expect(lost.status).toBe('unknown');
    expect(efi.stats().faultsInjected.create_late).toBe(1);
    await stack.db.transaction((em) =>
      stack.app.get(ProviderFactApplier).apply(em, lost.attemptId, { outcome: 'failed', providerChargeId: null, amountCents: null, currency: null }, { cause: 'resolver', actor: 'test:resolver', evidence: { lookup: 'not_found' } }),
    );
    expect(await entriesOf(stack, accountId, lost.attemptId)).toEqual(['reserve', 'release']);
    await waitFor(async () => transferBy(idEnvio(lost.attemptId)), (t) => t !== undefined, 10_000, 'the late transfer to execute');
    efi.settle(idEnvio(lost.attemptId), 'REALIZADO');
    late = { payoutId: lost.id, attemptId: lost.attemptId, e2e: transferBy(idEnvio(lost.attemptId))!.endToEndId };
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  type Divergence = { id: string; kind: string; providerChargeId: string | null; payoutId: string | null; attemptId: string | null; amountCents: number; detail: Record<string, unknown> };
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}`).set(stack.auth('admin'));
    expect(res.status).toBe(200);
    return res.body.items as Divergence[];
  };

  it('a second transfer naming a succeeded attempt is a duplicate, and a transfer for a failed attempt is money sent with no success: both put to a person', async () => {
    const before = await balanceOf(stack, accountId);
    const run = await reconcile(stack, today, 'api', 'efi');
    expect(run).toMatchObject({ linesRead: 3, matched: 1, settled: 0, divergences: { duplicate_transfer: 1, provider_only: 1, missing_at_provider: 0, amount_mismatch: 0 } });

    const found = await divergencesOf(run.id);
    expect(found.find((d) => d.kind === 'duplicate_transfer')).toMatchObject({
      providerChargeId: twice.secondE2e,
      payoutId: twice.payoutId,
      attemptId: twice.attemptId,
      amountCents: 2_000,
      detail: expect.objectContaining({ transferId: twice.secondIdEnvio, succeededEndToEndId: twice.firstE2e }),
    });
    expect(found.find((d) => d.kind === 'provider_only')).toMatchObject({
      providerChargeId: late.e2e,
      payoutId: late.payoutId,
      attemptId: late.attemptId,
      amountCents: 3_000,
      detail: expect.objectContaining({ transferId: idEnvio(late.attemptId), attemptStatus: 'failed' }),
    });

    // Each contradiction reaches a person with the statement line as evidence; no terminal status moved.
    const [duplicateItem] = await reviewItemsOf(twice.attemptId);
    expect(duplicateItem).toMatchObject({ reason: 'duplicate_provider_charges', state: 'open' });
    expect(duplicateItem.evidence.findings).toMatchObject({ cause: 'reconciliation', lineId: twice.secondE2e, transferId: twice.secondIdEnvio });
    const [lateItem] = await reviewItemsOf(late.attemptId);
    expect(lateItem).toMatchObject({ reason: 'provider_success_after_failure', state: 'open' });
    expect(lateItem.evidence.findings).toMatchObject({ cause: 'reconciliation', lineId: late.e2e, transferId: idEnvio(late.attemptId) });
    expect(await attemptStatus(stack, twice.attemptId)).toBe('succeeded');
    expect(await attemptStatus(stack, late.attemptId)).toBe('failed');

    // A second transfer of a debited payout is a person's to correct. The transfer of the payout we had released
    // left all the same: the statement line debits it late (the account covers it, so nothing is owed).
    expect(await entriesOf(stack, accountId, twice.attemptId)).toEqual(['reserve', 'debit']);
    expect(await entriesOf(stack, accountId, late.attemptId)).toEqual(['reserve', 'release', 'late_debit']);
    expect(lateItem.evidence.findings).toMatchObject({ lateDebit: { amountCents: 3_000, owedCents: 0 } });
    expect(await balanceOf(stack, accountId)).toEqual({ availableCents: before.availableCents - 3_000, reservedCents: before.reservedCents });
  });

  it('a re-run of the day finds the same divergences and does not put the same lines before a person again', async () => {
    const again = await reconcile(stack, today, 'api', 'efi');
    expect(again).toMatchObject({ linesRead: 3, matched: 1, settled: 0, divergences: { duplicate_transfer: 1, provider_only: 1 } });
    for (const attemptId of [twice.attemptId, late.attemptId]) {
      const items = await reviewItemsOf(attemptId);
      expect(items).toHaveLength(1);
      expect(items[0].evidence.laterFindings).toBeUndefined();
    }
  });
});
