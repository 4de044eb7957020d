import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN } from '@app/simulator';
import { createCharge, getCharge, submit, transitionsOf } from './support/charges.js';
import { freePortNumber } from '../apps/bench/src/free-port.js';
import { FAST_TIMINGS, startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const WORKER = 'dist/apps/worker/src/main.js';

/** The built worker process, scraped over its own HTTP port as Prometheus would. */
describe('the worker process serves /health and /metrics on WORKER_HTTP_PORT', () => {
  let stack: TestStack;
  let worker: ChildProcess | null = null;
  let workerUrl = '';
  const queuePrefix = `wmetrics-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npm run build\` (npm test does) first`);
    // This process runs no processors: only the spawned worker resolves.
    stack = await startTestStack({ queuePrefix });
    const port = await freePortNumber();
    workerUrl = `http://127.0.0.1:${port}`;
    worker = spawn(process.execPath, [WORKER], {
      env: {
        ...process.env, ...FAST_TIMINGS, QUEUE_PREFIX: queuePrefix, WORKER_HTTP_PORT: String(port),
        STRIPE_API_BASE: stack.sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator',
        ASAAS_API_BASE: stack.sim.apiUrl, ASAAS_API_KEY: '$aact_test_metrics', ASAAS_WEBHOOK_TOKEN: DEFAULT_ASAAS_WEBHOOK_TOKEN,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    await waitFor(() => fetch(`${workerUrl}/health`).then((r) => r.status).catch(() => 0), (s) => s === 200, 30_000, 'the worker /health');
  });
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await stack?.close();
  });

  it('answers /health with database and redis up', async () => {
    const body = (await (await fetch(`${workerUrl}/health`)).json()) as { status: string; info: Record<string, { status: string }> };
    expect(body.status).toBe('ok');
    expect(body.info.database.status).toBe('up');
    expect(body.info.redis.status).toBe('up');
  });

  it('shows a time-to-certainty observation after the worker resolves an unknown attempt', async () => {
    const before = await scrape(workerUrl);
    expect(sample(before, 'charge_once_unknown_to_certainty_seconds_count', { provider: 'stripe', cause: 'resolver' }) ?? 0).toBe(0);
    const charge = await createCharge(stack);
    // The provider creates the intent and then answers 500: we cannot know, so the attempt is unknown.
    stack.sim.setFaults({ rules: [{ fault: '500_after_create', match: { customerId: charge.customerId } }] });
    const { attempts } = await submit(stack, charge.id);
    expect(attempts[0].status).toBe('unknown');
    expect(stack.sim.stats().faultsInjected['500_after_create']).toBe(1);

    await waitFor(() => getCharge(stack, charge.id), (c) => c.status === 'succeeded', 20_000, 'the worker to resolve the attempt');
    expect(await transitionsOf(stack, attempts[0].id)).toContain('unknown→succeeded:resolver');

    const after = await scrape(workerUrl);
    expect(sample(after, 'charge_once_unknown_to_certainty_seconds_count', { provider: 'stripe', cause: 'resolver' })).toBe(1);
    expect(sample(after, 'charge_once_resolution_decisions_total', { provider: 'stripe', action: 'apply' })).toBe(1);
    expect(sample(after, 'charge_once_provider_calls_total', { provider: 'stripe', kind: 'lookup', outcome: 'found' })).toBe(1);
    // Queue depth comes from Redis at scrape time, one series per queue and state.
    for (const queue of ['attempt-submit', 'attempt-resolution-stripe', 'attempt-resolution-asaas']) {
      expect(sample(after, 'charge_once_queue_jobs', { queue, state: 'waiting' }), queue).toBeTypeOf('number');
    }
  });
});

async function scrape(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** One sample's value from Prometheus text format, matched on the given labels (others may be present). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
