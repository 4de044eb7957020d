import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '@app/reconciliation';
import { createCharge, submit } from './support/charges.js';
import { ASAAS_PROFILE } from './support/provider-profiles.js';
import { reconcile } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Issue 35: Asaas's extrato books chargebacks, their reversals and custody blocks, and the reader knew only three
 * refund types, so money taken back from a payment, given back or held was never read. Now each such entry is a
 * statement line and a divergence of its own for a person, naming our charge, with the provider's word as
 * evidence; a re-run of the day updates the same divergences. Own database and simulator.
 */
describe('Asaas chargebacks and custody blocks in the nightly run', () => {
  let stack: TestStack;
  const today = dayOf(new Date(), 'UTC');
  const planted = {} as { disputed: { chargeId: string; paymentId: string }; held: { chargeId: string; paymentId: string } };

  const paidCard = async () => {
    const view = await submit(stack, (await createCharge(stack, ASAAS_PROFILE.chargeBody())).id);
    expect(view.status, JSON.stringify(view)).toBe('succeeded');
    return { chargeId: view.id, paymentId: view.attempts[0].providerChargeId! };
  };

  beforeAll(async () => {
    stack = await startTestStack({ reconciliationDaysLater: 1, reconciliationRuns: true, env: { DATABASE_URL: await scratchDatabase('reconciliation_asaas_chargebacks'), RECONCILIATION_TZ: 'UTC' } });
    planted.disputed = await paidCard();
    stack.sim.setAsaasPaymentStatus(planted.disputed.paymentId, 'CHARGEBACK_REQUESTED');
    stack.sim.bookAsaasMovement(planted.disputed.paymentId, 'CHARGEBACK', today);
    stack.sim.setAsaasPaymentStatus(planted.disputed.paymentId, 'AWAITING_CHARGEBACK_REVERSAL');
    stack.sim.bookAsaasMovement(planted.disputed.paymentId, 'CHARGEBACK_REVERSAL', today);
    planted.held = await paidCard();
    stack.sim.bookAsaasMovement(planted.held.paymentId, 'PAYMENT_CUSTODY_BLOCK', today);
  });
  afterAll(async () => stack?.close());

  type Divergence = { kind: string; chargeId: string | null; providerChargeId: string | null; amountCents: number; detail: Record<string, unknown> };
  const divergencesOf = async (runId: string) => {
    const res = await stack.http.get(`/reconciliation/divergences?runId=${runId}&limit=100`).set(stack.auth('admin'));
    return (res.body.items as Divergence[]).filter((d) => ['chargeback', 'chargeback_reversal', 'custody_block'].includes(d.kind)).sort((a, b) => a.kind.localeCompare(b.kind) || String(a.detail.providerType).localeCompare(String(b.detail.providerType)));
  };

  it('puts each chargeback, reversal and custody block before a person, on our charge, with the provider\'s word', async () => {
    const run = await reconcile(stack, today, 'api', 'asaas');
    expect(run.divergences).toMatchObject({ chargeback: 1, chargeback_reversal: 1, custody_block: 1 });
    const found = await divergencesOf(run.id);
    expect(found).toMatchObject([
      { kind: 'chargeback', chargeId: planted.disputed.chargeId, providerChargeId: planted.disputed.paymentId, amountCents: 4990, detail: { providerType: 'CHARGEBACK', signedAmountCents: -4990, attemptStatus: 'succeeded' } },
      { kind: 'chargeback_reversal', chargeId: planted.disputed.chargeId, amountCents: 4990, detail: { providerType: 'CHARGEBACK_REVERSAL', signedAmountCents: 4990 } },
      { kind: 'custody_block', chargeId: planted.held.chargeId, providerChargeId: planted.held.paymentId, amountCents: 4990, detail: { providerType: 'PAYMENT_CUSTODY_BLOCK' } },
    ]);
    // The attempts are never rewritten by what the statement says of their money.
    const statuses = await stack.db.query<Array<{ status: string }>>(`SELECT status FROM attempts WHERE charge_id = ANY($1) ORDER BY status`, [[planted.disputed.chargeId, planted.held.chargeId]]);
    expect(statuses.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('reads the day again into the same divergences, and a later release joins them', async () => {
    stack.sim.bookAsaasMovement(planted.held.paymentId, 'PAYMENT_CUSTODY_BLOCK_REVERSAL', today);
    const run = await reconcile(stack, today, 'api', 'asaas');
    const found = await divergencesOf(run.id);
    expect(found.map((d) => [d.kind, d.detail.providerType])).toEqual([
      ['chargeback', 'CHARGEBACK'],
      ['chargeback_reversal', 'CHARGEBACK_REVERSAL'],
      ['custody_block', 'PAYMENT_CUSTODY_BLOCK'],
      ['custody_block', 'PAYMENT_CUSTODY_BLOCK_REVERSAL'],
    ]);
    const [{ n }] = await stack.db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM reconciliation_divergences WHERE kind IN ('chargeback', 'chargeback_reversal', 'custody_block')`);
    expect(n).toBe(4);
  });
});
