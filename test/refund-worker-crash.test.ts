import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity } from '@app/database';
import { transitionsOf } from './support/charges.js';
import { committedCents, getRefund, refund, succeededCharge } from './support/refunds.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { DEAD_SENDER_TIMINGS, killNine, recoverAfterDeadSender, spawnWorker } from './support/dead-sender.js';
import { waitFor } from './support/wait-for.js';

/** The same kill -9 as test/worker-crash.test.ts, on a refund attempt: the one sweeper and resolver recover it. */
describe('kill -9 of a worker in the middle of a refund', () => {
  let stack: TestStack;
  let worker: ChildProcess | null = null;
  const queuePrefix = `refund-crash-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    stack = await startTestStack({ queuePrefix, resolution: true, env: DEAD_SENDER_TIMINGS });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack.close();
  });

  it('leaves a lease behind; the sweeper makes the refund attempt unknown, the resolver finds the one refund, nothing is refunded twice', async () => {
    const customerId = `cus_${randomUUID().slice(0, 12)}`;
    const charge = await succeededCharge(stack, { customerId });
    // The refund's first send is rate limited, so the retry is the worker's; that retry hangs after refunding.
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId } }, { fault: 'hang_after_create', match: { customerId } }] });
    const created = await refund(stack, charge.id, 3000);
    const attemptId = created.attempts[0].id;
    expect(created.attempts[0].status).toBe('pending');

    worker = spawnWorker(stack, queuePrefix);
    await waitFor(async () => stack.sim.stats().hangingConnections, (n) => n === 1, 20_000, 'the worker to be stuck in its refund call');
    const claimed = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
    expect(claimed).toMatchObject({ operation: 'refund', status: 'pending', httpAttempts: 2 });
    expect(stack.sim.refunds({ refundAttemptId: attemptId })).toHaveLength(1);

    await killNine(worker);
    await waitFor(async () => stack.sim.stats().hangingConnections, (n) => n === 0, 5000, 'the dead worker\'s connection to close');

    // A retry while the lease stands sends nothing, and nobody recorded a result.
    const retried = await stack.http.post(`/refunds/${created.id}/submit`).set(stack.auth('merchant'));
    expect(retried.body.attempts).toHaveLength(1);
    expect(retried.body.status).toBe('processing');
    await recoverAfterDeadSender(stack, attemptId);

    const view = await getRefund(stack, created.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts[0].providerRefundId).toBe(stack.sim.refunds({ refundAttemptId: attemptId })[0].id);
    expect(stack.sim.stats().refundsByIdempotencyKey[created.attempts[0].idempotencyKey]).toBe(1);
    expect(stack.sim.refunds({ paymentIntentId: charge.attempts[0].providerChargeId! })).toHaveLength(1);
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→succeeded:resolver']);
    expect(await committedCents(stack, charge.id)).toBe(3000);
  });
});
