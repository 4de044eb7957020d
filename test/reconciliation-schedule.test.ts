import { afterAll, describe, expect, it, vi } from 'vitest';
import { ReconciliationRunsService, previousDay } from '@app/reconciliation';
import { startSimulator, type Simulator } from '@app/simulator';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/** Its own database and simulator: the scheduled run reconciles everything of a day, so it must see only this file's. */
describe('the nightly reconciliation in the workers', () => {
  const stacks: TestStack[] = [];
  let sim: Simulator | undefined;
  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.close()));
    await sim?.close();
  });

  it('two workers started at the same time run the previous day once, claimed in PostgreSQL', async () => {
    const databaseUrl = await scratchDatabase('reconciliation_schedule');
    sim = await startSimulator();
    const yesterday = previousDay(new Date(), 'UTC');
    const [planted] = sim.plantCharges([{ amount: 1234, created: Date.parse(`${yesterday}T12:00:00Z`) / 1000 }]);
    // Every second, so the test sees several ticks of both workers; in production the default is 0 2 * * *.
    const env = { DATABASE_URL: databaseUrl, RECONCILIATION_CRON: '* * * * * *', RECONCILIATION_TZ: 'UTC', RECONCILIATION_REPORT_POLL_MS: '20' };
    stacks.push(...(await Promise.all([startTestStack({ worker: true, sim, env }), startTestStack({ worker: true, sim, env })])));
    const [a, b] = stacks;
    const ticks = [vi.spyOn(a.app.get(ReconciliationRunsService), 'runScheduled'), vi.spyOn(b.app.get(ReconciliationRunsService), 'runScheduled')];

    const runs = () => a.db.query<Array<{ id: string; trigger: string; status: string; day: string; executions: number; source: string }>>(
      `SELECT id, provider, trigger, status, day::text AS day, executions, source FROM reconciliation_runs ORDER BY provider`,
    );
    // One run per provider whose statement can be read: Stripe's report, Asaas's payment list (it has no report).
    await waitFor(runs, (rows) => rows.length === 2 && rows.every((r) => r.status === 'succeeded'), 15_000, 'the nightly runs');
    // Both workers keep firing: each of them asks for the day at least twice more, and the database refuses.
    await waitFor(async () => ticks.map((t) => t.mock.calls.length), (calls) => calls.every((n) => n >= 2), 15_000, 'more ticks of both workers');
    for (const tick of ticks) expect(tick.mock.calls.every(([provider, day]) => ['stripe', 'asaas'].includes(provider) && day === yesterday)).toBe(true);

    const [asaas, stripe] = await runs();
    expect(await runs()).toHaveLength(2);
    expect(stripe).toMatchObject({ provider: 'stripe', trigger: 'scheduled', status: 'succeeded', day: yesterday, executions: 1, source: 'report' });
    expect(asaas).toMatchObject({ provider: 'asaas', trigger: 'scheduled', status: 'succeeded', day: yesterday, executions: 1, source: 'api' });
    const divergences = await a.db.query(`SELECT kind, provider_charge_id FROM reconciliation_divergences`);
    expect(divergences).toEqual([{ kind: 'provider_only', provider_charge_id: planted.paymentIntentId }]);
    expect(await a.db.query(`SELECT count(*)::int AS n FROM refund_proposals`)).toEqual([{ n: 1 }]);
  });
});
