import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EfiPixGateway } from '@app/gateways';
import { dayOf } from '@app/reconciliation';
import { startEfiSimulator, type EfiSimulator } from '@app/simulator';
import { balanceOf, entriesOf, fundedAccount, payoutBody } from './support/payouts.js';
import { reconcile } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const WEBHOOK_HMAC = 'efi-webhook-hmac-for-tests-0123456789';

interface Planted {
  accountId: string;
  matched: string;
  amountMismatch: string;
  settledAttempt: string;
  settledE2e: string;
  pendingAttempt: string;
  providerOnly: string;
  missingAttempt: string;
  duplicatePayout: string;
  duplicateAttempt: string;
  duplicateE2e: string;
}

/**
 * The Pix statement (`GET /v2/gn/pix/enviados`) of one day against our payouts, with every divergence planted at
 * the Efí simulator (a transfer no payout of ours made, a second transfer for a payout that succeeded, a lost
 * response) or by editing our rows (an amount, a success the provider never executed). No worker runs: nothing
 * but the reconciliation run and the webhooks the test lets through moves an attempt. Its own database and
 * simulator keep other files' payouts out of its day.
 */
describe('nightly reconciliation of Pix payouts against the sent-Pix statement', () => {
  let efi: EfiSimulator;
  let stack: TestStack;
  let planted: Planted;
  const today = dayOf(new Date(), 'UTC');
  const webhooksTo = (on: boolean) => efi.configure({ webhook: { url: on ? `${stack.baseUrl}/webhooks/efi?hmac=${WEBHOOK_HMAC}&ignorar=` : null } });
  const idEnvio = (attemptId: string) => attemptId.replace(/-/g, '');
  const transferOf = (attemptId: string) => efi.transfers().find((t) => t.idEnvio === idEnvio(attemptId))!;

  async function payout(amountCents: number): Promise<{ id: string; attemptId: string }> {
    const res = await stack.http.post(`/accounts/${planted.accountId}/payouts`).set(stack.auth('merchant')).set('Idempotency-Key', randomUUID()).send(payoutBody(amountCents));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.id as string, attemptId: res.body.attempts[0].id as string };
  }

  /** Settles the transfer at the provider; with webhooks on, our api learns it and the payout succeeds or fails. */
  async function settleAtProvider(attemptId: string, status: 'REALIZADO' | 'NAO_REALIZADO', expected: 'succeeded' | 'failed' | null): Promise<void> {
    efi.settle(idEnvio(attemptId), status);
    await efi.webhooksIdle();
    if (!expected) return;
    await waitFor(
      async () => (await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE id = $1`, [attemptId]))[0].status,
      (status) => status === expected,
      10_000,
      `payout attempt ${attemptId} to be ${expected}`,
    );
  }

  /** A transfer sent by someone else on our Efí account (or by a bug of ours), straight at the provider. */
  function directSender(): EfiPixGateway {
    return new EfiPixGateway({ apiBase: efi.apiUrl, clientId: 'efi_simulator_client', clientSecret: 'efi_simulator_secret', payerPixKey: 'payouts@charge-once.example', connectTimeoutMs: 1_000, readTimeoutMs: 1_000 });
  }

  beforeAll(async () => {
    efi = await startEfiSimulator({ settleAfterMs: null, hangMs: 1_500 });
    const databaseUrl = await scratchDatabase('reconciliation_payouts');
    stack = await startTestStack({ reconciliationDaysLater: 1, efi, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', EFI_WEBHOOK_HMAC: WEBHOOK_HMAC } });
    planted = { accountId: await fundedAccount(stack, 100_000) } as Planted;
    webhooksTo(true);

    const matched = await payout(1_000);
    await settleAtProvider(matched.attemptId, 'REALIZADO', 'succeeded');
    const amount = await payout(1_100);
    await settleAtProvider(amount.attemptId, 'REALIZADO', 'succeeded');
    await stack.db.query(`UPDATE payouts SET amount_cents = amount_cents + 100 WHERE id = $1`, [amount.id]);

    // A success of ours the provider never executed: the transfer ended NAO_REALIZADO, our row says succeeded.
    const missing = await payout(1_200);
    await settleAtProvider(missing.attemptId, 'NAO_REALIZADO', 'failed');
    // A state no code path can reach (failed → succeeded is refused by the state table's trigger): planted with
    // triggers off, so the nightly run meets the contradiction it exists to catch.
    await stack.db.transaction(async (em) => {
      await em.query(`SET LOCAL session_replication_role = replica`);
      await em.query(`UPDATE attempts SET status = 'succeeded', resolved_by = 'submit' WHERE id = $1`, [missing.attemptId]);
    });

    // A second transfer for a payout that already succeeded, under an attempt of that payout we recorded as failed.
    const duplicated = await payout(1_300);
    await settleAtProvider(duplicated.attemptId, 'REALIZADO', 'succeeded');
    const secondAttempt = randomUUID();
    await stack.db.query(
      `INSERT INTO attempts (id, payout_id, operation, idempotency_key, provider, status, payload, payload_hash, http_attempts, resolved_at, resolved_by)
       VALUES ($1, $2, 'payout', $3, 'efi', 'failed', '', repeat('0', 64), 1, now(), 'submit')`,
      [secondAttempt, duplicated.id, idEnvio(secondAttempt)],
    );
    webhooksTo(false);
    const sender = directSender();
    const body = sender.encodePixSend({ attemptId: secondAttempt, amountCents: 1_300, currency: 'brl', payeePixKey: 'payee@example.com.br' });
    expect(await sender.sendPix(idEnvio(secondAttempt), body)).toMatchObject({ kind: 'response', httpStatus: 201 });
    await settleAtProvider(secondAttempt, 'REALIZADO', null);

    // Money sent from the account by no payout of ours.
    const foreign = `manual${randomBytes(8).toString('hex')}`;
    expect(await sender.sendPix(foreign, sender.encodePixSend({ attemptId: randomUUID(), amountCents: 700, currency: 'brl', payeePixKey: 'someone@example.com.br' }))).toMatchObject({ httpStatus: 201 });
    efi.settle(foreign, 'REALIZADO');

    // Fault: the Pix executes, its response never arrives, and its webhook is lost: unknown, with a person asked.
    efi.setFaults({ rules: [{ fault: 'hang_after_create', times: 1 }] });
    const lost = await payout(1_400);
    expect(efi.stats().faultsInjected.hang_after_create).toBe(1);
    await settleAtProvider(lost.attemptId, 'REALIZADO', null);
    await stack.db.query(`INSERT INTO review_items (id, attempt_id, reason, evidence, state) VALUES ($1, $2, 'tries_exhausted', '{}', 'open')`, [randomUUID(), lost.attemptId]);

    // Still EM_PROCESSAMENTO at the provider: nothing to conclude yet.
    const pending = await payout(1_500);

    planted = {
      ...planted,
      matched: matched.attemptId,
      amountMismatch: transferOf(amount.attemptId).endToEndId,
      settledAttempt: lost.attemptId,
      settledE2e: transferOf(lost.attemptId).endToEndId,
      pendingAttempt: pending.attemptId,
      providerOnly: efi.transfers().find((t) => t.idEnvio === foreign)!.endToEndId,
      missingAttempt: missing.attemptId,
      duplicatePayout: duplicated.id,
      duplicateAttempt: secondAttempt,
      duplicateE2e: transferOf(secondAttempt).endToEndId,
    };
  });
  afterAll(async () => {
    await stack?.close();
    await efi?.close();
  });

  type Divergence = { id: string; kind: string; providerChargeId: string | null; chargeId: string | null; payoutId: string | null; attemptId: string | null; amountCents: number; status: string; detail: Record<string, unknown> };
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}`).set(stack.auth('admin'));
    expect(res.status).toBe(200);
    return res.body.items as Divergence[];
  };

  it('settles the lost Pix (reservation becomes a debit, its review item closes) and reports exactly the planted divergences', async () => {
    const before = await balanceOf(stack, planted.accountId);
    const run = await reconcile(stack, today, 'api', 'efi');
    expect(run).toMatchObject({
      linesRead: 8,
      matched: 2 + 1,
      settled: 1,
      divergences: { provider_only: 1, duplicate_transfer: 1, missing_at_provider: 1, amount_mismatch: 1, currency_mismatch: 0 },
    });
    expect(efi.stats().faultsInjected.hang_after_create).toBe(1);

    const found = await divergencesOf(run.id);
    const pick = (kind: string) => found.filter((d) => d.kind === kind);
    expect(pick('provider_only')).toEqual([expect.objectContaining({ providerChargeId: planted.providerOnly, payoutId: null, attemptId: null, amountCents: 700 })]);
    expect(pick('duplicate_transfer')).toEqual([expect.objectContaining({ providerChargeId: planted.duplicateE2e, payoutId: planted.duplicatePayout, attemptId: planted.duplicateAttempt, amountCents: 1_300 })]);
    expect(pick('missing_at_provider')).toEqual([expect.objectContaining({ attemptId: planted.missingAttempt, chargeId: null, amountCents: 1_200 })]);
    // The provider's own word for the transfer our success claims, as the statement listed it.
    expect(pick('missing_at_provider')[0].detail.providerTransfer).toMatchObject({ status: 'NAO_REALIZADO', transferId: idEnvio(planted.missingAttempt), amountCents: 1_200 });
    expect(pick('amount_mismatch')).toEqual([expect.objectContaining({ providerChargeId: planted.amountMismatch, amountCents: 1_100 })]);
    expect(found.every((d) => d.chargeId === null)).toBe(true);

    // The statement settled the lost transfer through the one applier: succeeded, its reservation debited once.
    const [attempt] = await stack.db.query(`SELECT status, provider_ref, resolved_by FROM attempts WHERE id = $1`, [planted.settledAttempt]);
    expect(attempt).toEqual({ status: 'succeeded', provider_ref: planted.settledE2e, resolved_by: 'reconciliation' });
    expect(await entriesOf(stack, planted.accountId, planted.settledAttempt)).toEqual(['reserve', 'debit']);
    const [item] = await stack.db.query(`SELECT state, decision, decided_by FROM review_items WHERE attempt_id = $1`, [planted.settledAttempt]);
    expect(item).toEqual({ state: 'closed', decision: 'succeeded', decided_by: 'reconciliation' });
    const after = await balanceOf(stack, planted.accountId);
    expect(after).toEqual({ availableCents: before.availableCents, reservedCents: before.reservedCents - 1_400 });

    // A transfer still in progress concludes nothing: its payout stays unknown and its money reserved.
    expect(await entriesOf(stack, planted.accountId, planted.pendingAttempt)).toEqual(['reserve']);
    const [pending] = await stack.db.query(`SELECT status FROM attempts WHERE id = $1`, [planted.pendingAttempt]);
    expect(pending.status).toBe('unknown');
    // Money sent cannot be refunded by us: no proposal, the divergence is finance's to act on.
    const proposals = await stack.http.get('/reconciliation/refund-proposals').set(stack.auth('admin'));
    expect(proposals.body).toEqual([]);
  });

  it('a second run of the day finds the same divergences, settles nothing twice and keeps an acknowledgement', async () => {
    const first = await divergencesOf((await reconcile(stack, today, 'api', 'efi')).id);
    const acknowledged = first.find((d) => d.kind === 'provider_only')!;
    const ack = await stack.http.post(`/reconciliation/divergences/${acknowledged.id}/ack`).set(stack.auth('admin')).send({ note: 'the treasury sent it by hand' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const debitsBefore = await entriesOf(stack, planted.accountId, planted.settledAttempt);

    const again = await reconcile(stack, today, 'api', 'efi');
    expect(again).toMatchObject({ linesRead: 8, matched: 3, settled: 0 });
    const second = await divergencesOf(again.id);
    expect(second.map((d) => d.id).sort()).toEqual(first.map((d) => d.id).sort());
    expect(second.find((d) => d.id === acknowledged.id)?.status).toBe('acknowledged');
    expect(await entriesOf(stack, planted.accountId, planted.settledAttempt)).toEqual(debitsBefore);
  });

  it('refuses a report-file run for Efí, which has none, with a 400 naming the source', async () => {
    const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'efi', date: today, source: 'report' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'statement_unsupported', details: { provider: 'efi', source: 'report' } });
  });
});
