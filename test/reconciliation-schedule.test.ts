import { afterAll, describe, expect, it, vi } from 'vitest';
import { ReconciliationRunsService, addDays, previousDay } from '@app/reconciliation';
import { startSimulator, type Simulator } from '@app/simulator';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { firstAttemptOn } from './support/reconciliation.js';

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
    // The service has charged through both providers since the day before: yesterday is a day of its own to reconcile.
    for (const provider of ['stripe', 'asaas']) await firstAttemptOn(databaseUrl, provider, addDays(yesterday, -1));
    // Every second, so the test sees several ticks of both workers; in production the default is 0 2 * * *.
    // Catch-up reaches back one day here (yesterday); the catch-up of earlier days has its own test below.
    const env = { DATABASE_URL: databaseUrl, RECONCILIATION_CRON: '* * * * * *', RECONCILIATION_TZ: 'UTC', RECONCILIATION_REPORT_POLL_MS: '20', RECONCILIATION_CATCHUP_DAYS: '1' };
    stacks.push(...(await Promise.all([startTestStack({ worker: true, sim, env }), startTestStack({ worker: true, sim, env })])));
    const [a, b] = stacks;
    const ticks = [vi.spyOn(a.app.get(ReconciliationRunsService), 'catchUp'), vi.spyOn(b.app.get(ReconciliationRunsService), 'catchUp')];

    const runs = () => a.db.query<Array<{ id: string; trigger: string; status: string; day: string; executions: number; source: string }>>(
      `SELECT id, provider, trigger, status, day::text AS day, executions, source FROM reconciliation_runs ORDER BY provider`,
    );
    // One run per provider whose statement can be read: Stripe's report, Asaas's payment list (it has no report).
    await waitFor(runs, (rows) => rows.length === 2 && rows.every((r) => r.status === 'succeeded'), 15_000, 'the nightly runs');
    // Both workers keep firing: each of them looks for the day at least twice more, and finds it reconciled.
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

  it('reconciles every day since the last success at the next tick, oldest first, after two failed nights', async () => {
    const databaseUrl = await scratchDatabase('reconciliation_catchup');
    // No backoff between tries here (the nights are seconds apart); test/reconciliation-nights.test.ts has the backoff.
    const stack = await startTestStack({
      env: { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', RECONCILIATION_REPORT_POLL_MS: '20', RECONCILIATION_CATCHUP_DAYS: '4', RECONCILIATION_SOURCE: 'api', RECONCILIATION_RETRY_BACKOFF_MS: '1' },
    });
    stacks.push(stack);
    const yesterday = previousDay(new Date(), 'UTC');
    const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const [d3, d2, d1] = [dayBefore(yesterday, 2), dayBefore(yesterday, 1), yesterday];
    const [lost] = stack.sim.plantCharges([{ amount: 777, created: Date.parse(`${d2}T12:00:00Z`) / 1000 }]);
    const runs = stack.app.get(ReconciliationRunsService);
    // Night one reconciled d3; nights two and three failed (the statement kept answering 500).
    expect(await runs.runScheduled('stripe', d3)).not.toBeNull();
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 8 }] });
    await runs.runScheduled('stripe', d2);
    expect(stack.sim.stats().faultsInjected.query_500).toBeGreaterThanOrEqual(4);
    stack.sim.setFaults({ rules: [{ fault: '500', on: 'query', times: 8 }] });
    await runs.runScheduled('stripe', d1);
    const statuses = () => stack.db.query<Array<{ day: string; status: string }>>(`SELECT day::text AS day, status FROM reconciliation_runs WHERE provider = 'stripe' ORDER BY started_at, id`);
    expect(await statuses()).toEqual([{ day: d3, status: 'succeeded' }, { day: d2, status: 'failed' }, { day: d1, status: 'failed' }]);

    // The next tick: every day of the window without a success, oldest first. The window's first day, before d3,
    // has no run either, but it came before the service's first run (d3) and it has no attempt of ours: there is
    // nothing of ours to reconcile then, so it is `before_service`, not a day to catch up.
    stack.sim.setFaults({});
    const ran = await runs.catchUp('stripe', d1);
    expect(ran).toEqual([d2, d1]);
    const after = await statuses();
    expect(after.filter((r) => r.status === 'succeeded').map((r) => r.day).sort()).toEqual([d3, d2, d1].sort());
    const calendar = await stack.http.get('/finance/reconciliation/calendar').query({ provider: 'stripe', to: d1, days: '4' }).set(stack.auth('admin'));
    expect(calendar.body.days.map((d: { day: string; status: string }) => [d.day, d.status])).toEqual([
      [d1, 'succeeded'], [d2, 'succeeded'], [d3, 'succeeded'], [dayBefore(yesterday, 3), 'before_service'],
    ]);
    const [divergence] = await stack.db.query(`SELECT kind, day::text AS day FROM reconciliation_divergences WHERE provider_charge_id = $1`, [lost.paymentIntentId]);
    expect(divergence).toEqual({ kind: 'provider_only', day: d2 });
    // Another tick finds nothing left to do.
    expect(await runs.catchUp('stripe', d1)).toEqual([]);
  });
});
