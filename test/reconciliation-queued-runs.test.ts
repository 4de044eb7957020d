import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { afterAll, describe, expect, it } from 'vitest';
import { RECONCILIATION_RUN_QUEUE, ReconciliationRunJobs } from '@app/queues';
import { ReconciliationRunsService, dayOf } from '@app/reconciliation';
import { startSimulator, type Simulator } from '@app/simulator';
import { waitForRun, type RunBody } from './support/reconciliation.js';
import { scratchDatabase } from './support/scratch-database.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * An on-demand run is recorded by the api and executed by a worker. Its own database and simulator: a run
 * reconciles everything of its day.
 */
describe('on-demand reconciliation runs queued to the worker', () => {
  const stacks: TestStack[] = [];
  let sim: Simulator | undefined;
  afterAll(async () => {
    for (const stack of stacks) await stack.close();
    await sim?.close();
  });

  it('a run whose job Redis lost is taken over by a worker once its claim deadline passes, and runs once', async () => {
    const databaseUrl = await scratchDatabase('reconciliation_queued');
    sim = await startSimulator();
    const today = dayOf(new Date(), 'UTC');
    sim.plantCharges([{ amount: 4321 }]);
    const env = { DATABASE_URL: databaseUrl, RECONCILIATION_TZ: 'UTC', RECONCILIATION_LEASE_MS: '1000', RECONCILIATION_CRON: 'off' };
    const queuePrefix = `recon-queued-${randomUUID().slice(0, 8)}`;
    // An api with no worker: the run is recorded, claimed by no one, and its job waits in Redis.
    const api = await startTestStack({ sim, queuePrefix, env, reconciliationDaysLater: 1 });
    stacks.push(api);
    const res = await api.http.post('/reconciliation/runs').set(api.auth('admin')).send({ provider: 'stripe', date: today, source: 'api' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = (res.body as { id: string }).id;
    const [recorded] = await api.db.query(`SELECT status, executions, lease_owner FROM reconciliation_runs WHERE id = $1`, [id]);
    expect(recorded).toEqual({ status: 'running', executions: 0, lease_owner: null });

    // Redis loses the job (as in a flush of this queue's keys only); queueing it again while it lived was a no-op.
    const queue = api.app.get<Queue>(getQueueToken(RECONCILIATION_RUN_QUEUE), { strict: false });
    await api.app.get(ReconciliationRunJobs).schedule(id);
    expect(await queue.getJobCounts()).toMatchObject({ waiting: 1 });
    await (await queue.getJob(id))!.remove();
    expect(await queue.getJob(id)).toBeNull();

    // A worker with no job to run: its expired-lease sweep finds the run and completes it.
    const worker = await startTestStack({ worker: true, sim, queuePrefix, env });
    stacks.push(worker);
    const run: RunBody = await waitForRun(worker, id);
    expect(run).toMatchObject({ executions: 1, linesRead: 1, divergences: { provider_only: 1 } });

    // A late or duplicate job for the finished run claims nothing.
    await worker.app.get(ReconciliationRunsService).runQueued(id);
    const [after] = await worker.db.query(`SELECT status, executions FROM reconciliation_runs WHERE id = $1`, [id]);
    expect(after).toEqual({ status: 'succeeded', executions: 1 });
  });
});
