import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { previousDay } from '@app/reconciliation';
import { startSimulator, type Simulator } from '@app/simulator';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';
import { firstAttemptOn } from './support/reconciliation.js';

const WORKER = 'dist/apps/worker/src/main.js';
const LINES = 40;

/**
 * A real worker process (the built artifact) is killed with SIGKILL while it streams the provider's report
 * file; another worker takes the run over once its lease has expired and completes it exactly once.
 */
describe('kill -9 of a worker in the middle of a reconciliation run', () => {
  let sim: Simulator | undefined;
  let stack: TestStack | undefined;
  let worker: ChildProcess | null = null;
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack?.close();
    await sim?.close();
  });

  it('the run is taken over after its lease expires and completes once', async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npm run build\` (npm test does) first`);
    const databaseUrl = await scratchDatabase('reconciliation_crash');
    // The report file stops after 5 lines and hangs: the worker is stuck mid-run, its lease still renewed.
    sim = await startSimulator({ reportStallAfterLines: 5 });
    const yesterday = previousDay(new Date(), 'UTC');
    const noon = Date.parse(`${yesterday}T12:00:00Z`) / 1000;
    const planted = sim.plantCharges(Array.from({ length: LINES }, (_, i) => ({ amount: 500 + i, created: noon + i })));
    // Only yesterday: earlier days' catch-up runs would be other rows here (catch-up has its own test).
    // The service has charged through Stripe since yesterday (so yesterday is its own to reconcile).
    await firstAttemptOn(databaseUrl, 'stripe', yesterday);
    const env = { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', RECONCILIATION_LEASE_MS: '1500', RECONCILIATION_REPORT_POLL_MS: '20', RECONCILIATION_CATCHUP_DAYS: '1' };

    worker = spawn(process.execPath, [WORKER], {
      env: {
        ...process.env, ...env, RECONCILIATION_CRON: '* * * * * *', QUEUE_PREFIX: `recon-crash-${randomUUID().slice(0, 8)}`,
        STRIPE_API_BASE: sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator', PROVIDER_READ_TIMEOUT_MS: '30000', SUBMIT_LEASE_MS: '60000', LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    await waitFor(async () => sim!.stats().faultsInjected.report_stall ?? 0, (n) => n === 1, 30_000, 'the worker to be stuck in the report file');
    const runs = async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query<{ id: string; status: string; executions: number; lease_owner: string | null }>(
          `SELECT id, status, executions, lease_owner FROM reconciliation_runs`,
        )).rows;
      } finally {
        await client.end();
      }
    };
    const [stuck] = await runs();
    expect(stuck).toMatchObject({ status: 'running', executions: 1 });
    expect(stuck.lease_owner).toContain(`:${worker.pid}:`);

    worker.kill('SIGKILL');
    await new Promise((resolve) => worker!.once('exit', resolve));
    expect(worker.signalCode).toBe('SIGKILL');
    sim.configure({ reportStallAfterLines: null });

    // A fresh worker with no nightly schedule of its own: only the takeover can finish the run.
    stack = await startTestStack({ worker: true, sim, env: { ...env, RECONCILIATION_CRON: 'off' } });
    const done = await waitFor(runs, (rows) => rows[0]?.status === 'succeeded', 20_000, 'the taken-over run to complete');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ id: stuck.id, status: 'succeeded', executions: 2, lease_owner: null });
    const [run] = await stack.db.query(`SELECT lines_read, divergence_counts FROM reconciliation_runs`);
    expect(run).toMatchObject({ lines_read: LINES, divergence_counts: { provider_only: LINES } });
    const found = await stack.db.query<Array<{ provider_charge_id: string }>>(`SELECT provider_charge_id FROM reconciliation_divergences ORDER BY provider_charge_id`);
    expect(found.map((d) => d.provider_charge_id)).toEqual(planted.map((p) => p.paymentIntentId).sort());
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM refund_proposals`)).toEqual([{ n: LINES }]);
    // The same report was asked for again under the run's key, not a second one.
    expect(sim.stats().requests.reportFiles).toBe(2);
  });
});
