import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestStack } from './test-stack.js';
import { waitFor } from './wait-for.js';

export interface RunBody {
  id: string;
  status: string;
  linesRead: number;
  matched: number;
  settled: number;
  divergences: Record<string, number>;
  executions: number;
  error: string | null;
}

/** Starts a run over HTTP and waits for it to finish; returns the run view. */
export async function reconcile(stack: TestStack, date: string, source: 'api' | 'report' = 'api'): Promise<RunBody> {
  const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider: 'stripe', date, source });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitForRun(stack, (res.body as { id: string }).id);
}

export async function waitForRun(stack: TestStack, id: string, timeoutMs = 20_000): Promise<RunBody> {
  const run = await waitFor(
    async () => (await stack.http.get(`/reconciliation/runs/${id}`).set(stack.auth('admin'))).body as RunBody,
    (r) => r.status !== 'running',
    timeoutMs,
    `reconciliation run ${id}`,
  );
  expect(run.error).toBeNull();
  expect(run.status).toBe('succeeded');
  return run;
}

/** Our own rows edited into a success the provider never saw. */
export async function insertSucceededAttempt(stack: TestStack, chargeId: string, providerChargeId: string): Promise<string> {
  const id = randomUUID();
  await stack.db.query(
    `INSERT INTO charge_attempts (id, charge_id, idempotency_key, provider, status, provider_charge_id, payload, payload_hash, http_attempts, resolved_at, resolved_by)
     VALUES ($1, $2, $3, 'stripe', 'succeeded', $4, '', repeat('0', 64), 1, now(), 'submit')`,
    [id, chargeId, randomUUID(), providerChargeId],
  );
  return id;
}
