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
export async function reconcile(stack: TestStack, date: string, source: 'api' | 'report' = 'api', provider = 'stripe'): Promise<RunBody> {
  const res = await stack.http.post('/reconciliation/runs').set(stack.auth('admin')).send({ provider, date, source });
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
    `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by)
     VALUES ($1, $2, $3, 'stripe', 'succeeded', $4, '', repeat('0', 64), 1, now(), 'submit')`,
    [id, chargeId, randomUUID(), providerChargeId],
  );
  return id;
}

/**
 * A refund proposal as a nightly run would record it for `providerChargeId`, inserted directly (with its run
 * and divergence) so a test that shares the suite database need not reconcile a whole day.
 */
export async function insertRefundProposal(
  stack: TestStack,
  input: { providerChargeId: string; amountCents: number; kind?: 'provider_only' | 'duplicate_charge'; chargeId?: string | null; provider?: 'stripe' | 'asaas' },
): Promise<{ proposalId: string; divergenceId: string }> {
  const day = new Date().toISOString().slice(0, 10);
  const kind = input.kind ?? 'provider_only';
  const provider = input.provider ?? 'stripe';
  const currency = provider === 'asaas' ? 'brl' : 'usd';
  const [{ id: runId }] = await stack.db.query(
    `INSERT INTO reconciliation_runs (id, provider, day, trigger, source, status, requested_by, executions)
     VALUES (gen_random_uuid(), $2, $1, 'manual', 'api', 'succeeded', 'test', 1) RETURNING id`,
    [day, provider],
  );
  const [{ id: divergenceId }] = await stack.db.query(
    `INSERT INTO reconciliation_divergences (id, run_id, kind, provider, day, subject, provider_charge_id, charge_id, amount_cents, currency, detail, status)
     VALUES (gen_random_uuid(), $1, $2, $7, $3, $4, $4, $5, $6, $8, '{}', 'open') RETURNING id`,
    [runId, kind, day, input.providerChargeId, input.chargeId ?? null, input.amountCents, provider, currency],
  );
  const [{ id: proposalId }] = await stack.db.query(
    `INSERT INTO refund_proposals (id, divergence_id, provider, provider_charge_id, charge_id, amount_cents, currency, reason, state)
     VALUES (gen_random_uuid(), $1, $6, $2, $3, $4, $7, $5, 'proposed') RETURNING id`,
    [divergenceId, input.providerChargeId, input.chargeId ?? null, input.amountCents, kind, provider, currency],
  );
  return { proposalId, divergenceId };
}

/**
 * The service has charged through `provider` since noon UTC of `day`: the row its first attempt writes
 * (`provider_first_attempts`). Reconciliation begins that day; earlier days are before the service.
 */
export async function firstAttemptOn(databaseUrl: string, provider: string, day: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO provider_first_attempts (provider, first_attempt_at) VALUES ($1, $2::date + time '12:00' AT TIME ZONE 'UTC')`, [provider, day]);
  } finally {
    await client.end();
  }
}
