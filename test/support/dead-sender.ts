import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { AttemptEntity } from '@app/database';
import { OpenAttemptSweeper, UnknownAttemptResolver } from '@app/resolution';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN } from '@app/simulator';
import type { TestStack } from './test-stack.js';
import { waitFor } from './wait-for.js';

/**
 * After a sender died mid-call: waits for its lease to run out, lets the sweeper make the attempt unknown, and
 * has the resolver ask the provider, which must find the one thing the dead sender created.
 */
export async function recoverAfterDeadSender(stack: TestStack, attemptId: string): Promise<void> {
  await waitFor(
    () => stack.db.getRepository(AttemptEntity).findOneByOrFail({ id: attemptId }),
    (a) => a.leaseExpiresAt !== null && a.leaseExpiresAt.getTime() < Date.now() - 100,
    8000,
    'the lease to run out',
  );
  const report = await stack.app.get(OpenAttemptSweeper).sweep();
  expect(report.leasesExpired).toBeGreaterThanOrEqual(1);
  expect(await stack.app.get(UnknownAttemptResolver).resolve(attemptId)).toMatchObject({ action: 'apply', status: 'succeeded' });
}

/** The built worker, the artifact production runs (`npm test` builds first). */
const WORKER_MAIN = 'dist/apps/worker/src/main.js';

/** The worker is killed within milliseconds of hanging, well inside its 3 s read timeout; the lease outlives any call. */
export const DEAD_SENDER_TIMINGS = { PROVIDER_CONNECT_TIMEOUT_MS: '300', PROVIDER_READ_TIMEOUT_MS: '3000', SUBMIT_LEASE_MS: '3500' };

/** A real worker process on the stack's queues and simulators, to be killed mid-call; `env` adds or overrides settings. */
export function spawnWorker(stack: TestStack, queuePrefix: string, env: Record<string, string> = {}): ChildProcess {
  if (!existsSync(WORKER_MAIN)) throw new Error(`${WORKER_MAIN} is missing: run \`npm run build\` (npm test does) first`);
  return spawn(process.execPath, [WORKER_MAIN], {
    env: {
      ...process.env, ...DEAD_SENDER_TIMINGS, QUEUE_PREFIX: queuePrefix, STRIPE_API_BASE: stack.sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator',
      ASAAS_API_BASE: stack.sim.apiUrl, ASAAS_API_KEY: '$aact_test_crash', ASAAS_WEBHOOK_TOKEN: DEFAULT_ASAAS_WEBHOOK_TOKEN,
      SWEEPER_INTERVAL_MS: '600000', LOG_LEVEL: 'silent', ...env,
    },
    stdio: 'ignore',
  });
}

/** kill -9: no shutdown hook runs and no lease is released, as when a machine dies. */
export async function killNine(worker: ChildProcess): Promise<void> {
  worker.kill('SIGKILL');
  await new Promise((resolve) => worker.once('exit', resolve));
  expect(worker.signalCode).toBe('SIGKILL');
}
