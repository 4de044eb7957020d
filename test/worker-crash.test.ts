import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity } from '@app/database';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { PROVIDER_PROFILES } from './support/provider-profiles.js';
import { startTestStack, type TestStack } from './support/test-stack.js';
import { DEAD_SENDER_TIMINGS, killNine, recoverAfterDeadSender, spawnWorker } from './support/dead-sender.js';
import { waitFor } from './support/wait-for.js';

/**
 * A real worker process, killed with SIGKILL while its provider call is on the wire. `npm test` builds
 * first, so the worker here is the same artifact that runs in production.
 */
describe.each(PROVIDER_PROFILES)('kill -9 of a worker between claim and response ($provider)', (profile) => {
  let stack: TestStack;
  let worker: ChildProcess | null = null;
  const queuePrefix = `crash-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    // This process runs no processors: only the spawned worker consumes the send queue.
    stack = await startTestStack({ queuePrefix, resolution: true, env: DEAD_SENDER_TIMINGS });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack.close();
  });

  it('leaves a lease behind; the sweeper makes the attempt unknown, the resolver finds the one intent, nothing is sent twice', async () => {
    const body = profile.chargeBody();
    const customerId = body.customerId as string;
    // The first send is rate limited, so the retry is the worker's; that retry hangs after creating the intent.
    stack.sim.setFaults({ rules: [{ fault: '429', match: { customerId } }, { fault: 'hang_after_create', match: { customerId } }] });
    const charge = await createCharge(stack, body);
    const { attempts } = await submit(stack, charge.id);
    const attemptId = attempts[0].id;
    expect(attempts[0].status).toBe('pending');

    worker = spawnWorker(stack, queuePrefix);
    await waitFor(async () => stack.sim.stats().hangingConnections, (n) => n === 1, 20_000, 'the worker to be stuck in its provider call');
    const claimed = await stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId });
    expect(claimed).toMatchObject({ status: 'pending', httpAttempts: 2 });
    expect(claimed.leaseExpiresAt).not.toBeNull();

    await killNine(worker);
    await waitFor(async () => stack.sim.stats().hangingConnections, (n) => n === 0, 5000, 'the dead worker\'s connection to close');

    // Nothing sends the attempt again while its lease stands, and nobody recorded a result.
    expect((await submit(stack, charge.id)).attempts[0].status).toBe('pending');
    await recoverAfterDeadSender(stack, attemptId);

    const view = await getCharge(stack, charge.id);
    expect(view.status).toBe('succeeded');
    expect(view.attempts[0].providerChargeId).toBe(profile.chargesFor(stack.sim, attemptId)[0].id);
    expect(profile.chargesFor(stack.sim, attemptId)).toHaveLength(1);
    expect(profile.createsFor(stack.sim, attempts[0])).toBe(1);
    // The 429'd send and the worker's resend; nothing after the crash.
    expect(profile.requestsFor(stack.sim, attempts[0])).toBe(2);
    expect(await transitionsOf(stack, attemptId)).toEqual(['new→pending:submit', 'pending→unknown:sweeper', 'unknown→succeeded:resolver']);
  });
});
