import { expect } from 'vitest';
import { ChargeAttemptEntity } from '@app/database';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import type { TestStack } from './test-stack.js';
import { waitFor } from './wait-for.js';

/**
 * After a sender died mid-call: waits for its lease to run out, lets the sweeper make the attempt unknown, and
 * has the resolver ask the provider, which must find the one thing the dead sender created.
 */
export async function recoverAfterDeadSender(stack: TestStack, attemptId: string): Promise<void> {
  await waitFor(
    () => stack.db.getRepository(ChargeAttemptEntity).findOneByOrFail({ id: attemptId }),
    (a) => a.leaseExpiresAt !== null && a.leaseExpiresAt.getTime() < Date.now() - 100,
    8000,
    'the lease to run out',
  );
  const report = await stack.app.get(OpenAttemptSweeper).sweep();
  expect(report.leasesExpired).toBeGreaterThanOrEqual(1);
  expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toMatchObject({ action: 'apply', status: 'succeeded' });
}
