import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayOf } from '@app/reconciliation';
import { startEfiSimulator, type EfiSimulator, type StatementFault } from '@app/simulator';
import { reconcile, type RunBody } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/**
 * Issue 24, "statement readers never end short": a page that cannot prove the day goes on (Stripe's `has_more`
 * with nothing to page from, Efí's page with no page count, an Asaas list that moved or never adds up to its
 * `totalCount`) is a failed page, never the end of the day. Each fault is struck by the simulator, which counts
 * it. Own database and simulators, so no other file's charges are in its day.
 */
describe('statement readers never end short', () => {
  let stack: TestStack;
  let efi: EfiSimulator;
  const today = dayOf(new Date(), 'UTC');

  /**
   * A run of `provider`'s day while its simulator strikes `fault` on every statement page: it must fail having
   * concluded nothing. Started over HTTP, waited for until it is no longer running; the fault is cleared after.
   */
  async function runFailingUnder(provider: string, simulator: Pick<TestStack['sim'], 'setFaults'>, fault: StatementFault): Promise<RunBody> {
    simulator.setFaults({ rules: [{ fault, on: 'statement', times: 100 }] });
    const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider, date: today });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = await waitFor(
      async () => (await stack.http.get(`/reconciliation/runs/${res.body.id}`).set(stack.auth('admin'))).body as RunBody,
      (r) => r.status !== 'running',
      20_000,
      `the ${provider} run to end`,
    );
    simulator.setFaults({ rules: [] });
    expect(run).toMatchObject({ status: 'failed', linesRead: 0 });
    return run;
  }

  beforeAll(async () => {
    efi = await startEfiSimulator({ settleAfterMs: null });
    const databaseUrl = await scratchDatabase('reconciliation_short_pages');
    stack = await startTestStack({ reconciliationDaysLater: 1, efi, reconciliationRuns: true, env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC' } });
    stack.sim.plantCharges([{ amount: 1000 }, { amount: 2000 }, { amount: 3000 }]);
    // More than one page of the day at Asaas (100 a page), and one payment of the next day, still being written.
    stack.sim.plantAsaasPayments(Array.from({ length: 150 }, (_, i) => ({ amountCents: 1000 + i, paymentDate: today })));
    stack.sim.plantAsaasPayments([{ amountCents: 999, paymentDate: addDays(today, 1) }]);
  });
  afterAll(async () => {
    await stack.close();
    await efi.close();
  });

  // Stripe's page is asked again; Asaas's list, which moved under its offsets, is read again from the start.
  it.each<[string, StatementFault, number]>([
    ['stripe', 'has_more_empty', 3],
    ['asaas', 'list_moved', 150],
  ])('%s: a statement page struck once by %s is read again and the day is read whole', async (provider, fault, lines) => {
    stack.sim.setFaults({ rules: [{ fault, on: 'statement', times: 1 }] });
    const run = await reconcile(stack, today, 'api', provider);
    expect(stack.sim.stats().faultsInjected[`statement_${fault}`]).toBe(1);
    expect(run.linesRead).toBe(lines);
  });

  it('Stripe: has_more with unreadable data on every try fails the run, concluding nothing', async () => {
    const run = await runFailingUnder('stripe', stack.sim, 'has_more_unreadable');
    expect(run.error).toMatch(/balance_transactions answered 2xx without a list/);
    // Every try of the first page: asked again, then the run gives up.
    expect(stack.sim.stats().faultsInjected.statement_has_more_unreadable).toBe(4);
  });

  it('Efí: a sent-Pix page without quantidadeDePaginas is a failed page; one that keeps coming fails the run', async () => {
    const run = await runFailingUnder('efi', efi, 'no_page_count');
    expect(run.error).toMatch(/quantidadeDePaginas/);
    expect(efi.stats().faultsInjected.statement_no_page_count).toBe(4);
    expect((await reconcile(stack, today, 'api', 'efi')).status).toBe('succeeded');
  });

  it('Asaas: the day is read to its end and no further, the next day being still written', async () => {
    const run = await reconcile(stack, today, 'api', 'asaas');
    expect(run.linesRead).toBe(150);
  });

  it('Asaas: a totalCount the pages never add up to fails the run after a bounded number of reads', async () => {
    const run = await runFailingUnder('asaas', stack.sim, 'total_mismatch');
    expect(run.error).toMatch(/totalCount/);
    // Three reads of the day, two pages each, every page struck.
    expect(stack.sim.stats().faultsInjected.statement_total_mismatch).toBe(6);
  });
});
