import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { AttemptSender } from '@app/attempts';
import { ScheduledRunClaim } from '@app/database';
import { SUBMIT_QUEUE, resolutionQueueFor } from '@app/queues';
import { OpenAttemptSweeper } from '@app/resolution';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

describe('the sweeper and the key lifetime', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Retries and resolution tries ten minutes apart: only the sweeper can bring a lost reminder back within the test.
    stack = await startTestStack({ worker: true, env: { SUBMIT_RETRY_BACKOFF_MS: '600000', RESOLUTION_BACKOFF_MS: '600000' } });
  });
  afterAll(async () => stack.close());

  it('resumes a pending attempt whose retry reminder Redis lost', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId }, times: 1 }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0]).toMatchObject({ status: 'pending', httpAttempts: 1 });
    // The backoff has passed but the delayed job that would send it is gone.
    const job = await stack.app.get<Queue>(getQueueToken(SUBMIT_QUEUE)).getJob(`send:${attempts[0].id}:1`);
    expect(job).not.toBeNull();
    await job!.remove();
    await stack.db.query(`UPDATE attempts SET next_send_at = now(), updated_at = now() - interval '1 minute' WHERE id = $1`, [attempts[0].id]);

    const report = await stack.app.get(OpenAttemptSweeper).sweep();
    expect(report.sendsResumed).toBeGreaterThanOrEqual(1);
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the resumed send');
    expect(done.attempts[0].httpAttempts).toBe(2);
    expect(stack.sim.requests(attempts[0].idempotencyKey)).toHaveLength(2);
    expect(stack.sim.stats().createsByIdempotencyKey[attempts[0].idempotencyKey]).toBe(1);
  });

  /**
   * Redis lost the list that held a reminder but kept the job's hash (an eviction, or a purge racing writes): Bull's
   * `add` takes any existing id for live, so re-adding it is a no-op and the attempt would wait forever.
   */
  async function orphan(queue: Queue, jobId: string): Promise<void> {
    expect(await queue.client.zrem(queue.toKey('delayed'), jobId)).toBe(1);
    expect(await queue.client.exists(queue.toKey(jobId))).toBe(1);
  }

  it('resumes a pending attempt whose retry reminder Redis kept in no list', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId }, times: 1 }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0]).toMatchObject({ status: 'pending', httpAttempts: 1 });
    await orphan(stack.app.get<Queue>(getQueueToken(SUBMIT_QUEUE)), `send:${attempts[0].id}:1`);
    await stack.db.query(`UPDATE attempts SET next_send_at = now(), updated_at = now() - interval '1 minute' WHERE id = $1`, [attempts[0].id]);

    await stack.app.get(OpenAttemptSweeper).sweep();
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the resumed send');
    expect(done.attempts[0].httpAttempts).toBe(2);
    expect(stack.sim.stats().createsByIdempotencyKey[attempts[0].idempotencyKey]).toBe(1);
  });

  it('resolves an unknown attempt whose resolution reminder Redis kept in no list', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    // The provider charges the card, then answers 500: unknown, and only a query can say what happened.
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId }, times: 1 }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0].status).toBe('unknown');
    const queue = stack.app.get<Queue>(getQueueToken(resolutionQueueFor('stripe')));
    await orphan(queue, `resolve:${attempts[0].id}:0`);

    await stack.app.get(OpenAttemptSweeper).sweep();
    const done = await waitFor(() => getCharge(stack, charge.id), (v) => v.status === 'succeeded', 10_000, 'the resolution the sweeper re-created');
    expect(done.attempts[0].status).toBe('succeeded');
    expect((await transitionsOf(stack, attempts[0].id)).at(-1)).toBe('unknown→succeeded:resolver');
    expect(stack.sim.stats().createsByIdempotencyKey[attempts[0].idempotencyKey]).toBe(1);
  });

  it('never re-sends an attempt whose key is older than the provider keeps it: only a query may resolve it', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId }, times: 1 }] });
    const charge = await createCharge(stack, { customerId });
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0].status).toBe('pending');
    // The key was minted 24 hours ago: Stripe may have pruned it, so a resend could charge twice.
    await stack.db.query(`UPDATE attempts SET created_at = now() - interval '24 hours', next_send_at = now() WHERE id = $1`, [attempts[0].id]);
    await stack.app.get(AttemptSender).send(attempts[0].id, 'test');
    expect(stack.sim.requests(attempts[0].idempotencyKey)).toHaveLength(1);
    const trail = await transitionsOf(stack, attempts[0].id);
    expect(trail[1]).toBe('pending→unknown:submit');
  });

  it('lets exactly one of many workers start a scheduled run per interval', async () => {
    const guard = stack.app.get(ScheduledRunClaim);
    const name = `test-job-${randomUUID()}`;
    const starts = await Promise.all(Array.from({ length: 10 }, () => guard.tryStart(name, 60_000)));
    expect(starts.filter(Boolean)).toHaveLength(1);
    expect(await guard.tryStart(name, 60_000)).toBe(false);
    await stack.db.query(`UPDATE scheduled_runs SET last_started_at = now() - interval '2 minutes' WHERE name = $1`, [name]);
    expect(await guard.tryStart(name, 60_000)).toBe(true);
  });
});
