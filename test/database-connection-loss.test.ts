import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeView } from '@app/charges';
import { ReviewItemEntity } from '@app/database';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

const APP_NAME = `conn-loss-${randomUUID().slice(0, 8)}`;

/**
 * PostgreSQL drops every connection of the api and worker mid-run (what a restart looks like from the client),
 * while submits are on the wire. Only this stack's connections are killed (by application_name), so the rest
 * of the suite is untouched. Afterwards the service recovers on its own and nothing is lost or charged twice.
 */
describe('PostgreSQL dropping every connection mid-run', () => {
  let stack: TestStack;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('application_name', APP_NAME);
    stack = await startTestStack({
      worker: true,
      env: { DATABASE_URL: url.toString(), SWEEPER_INTERVAL_MS: '300', PROVIDER_CONNECT_TIMEOUT_MS: '300', PROVIDER_READ_TIMEOUT_MS: '1000', SUBMIT_LEASE_MS: '1500' },
    });
    stack.sim.configure({ createLatencyMs: 150 });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await stack.close();
  });

  const read = async (id: string): Promise<ChargeView | null> => {
    const res = await stack.http.get(`/charges/${id}`).set(stack.auth('merchant'));
    return res.status === 200 ? (res.body as ChargeView) : null;
  };
  const settled = (v: ChargeView | null) => v !== null && ['succeeded', 'failed', 'in_review'].includes(v.status);

  it('recovers by itself, with at most one provider success per charge and every success recorded', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody({ customerId: `cus_loss_${i}` }));
      ids.push(res.body.id);
    }
    const submits = ids.map((id) => stack.http.post(`/charges/${id}/submit`).set(stack.auth('merchant')).then((r) => r.status));
    await waitFor(async () => stack.sim.stats().requests.creates, (n) => n >= 2, 10_000, 'submits to reach the provider');
    // Connections die again and again while the submits run, so some die under a statement in flight (an idle
    // pooled connection that dies is only replaced, and a single cut often finds every connection idle).
    let killed = 0;
    let outstanding = true;
    const all = Promise.all(submits).finally(() => (outstanding = false));
    while (outstanding) {
      const res = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [APP_NAME]);
      killed += res.rowCount ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(killed).toBeGreaterThan(0);
    const statuses = await all;
    // A submit whose connection was cut answers 503 with Retry-After (database_unavailable), never a 500.
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    // The fault struck mid-flight: some submits lost their connection between the provider call and its record
    // (else this test would pass without ever testing a cut).
    const cut = ids.filter((_, i) => statuses[i] === 503);
    expect(cut.length, JSON.stringify(statuses)).toBeGreaterThan(0);
    expect(cut.some((id) => stack.sim.intents().some((intent) => intent.metadata.charge_id === id))).toBe(true);

    // Charges whose submit died before an attempt existed are submitted again, as a client would.
    const views = await waitFor(() => Promise.all(ids.map(read)), (vs) => vs.every((v) => v !== null), 15_000, 'the api to reconnect');
    for (const view of views) if (view!.status === 'created') await stack.http.post(`/charges/${view!.id}/submit`).set(stack.auth('merchant'));
    const final = await waitFor(() => Promise.all(ids.map(read)), (vs) => vs.every(settled), 20_000, 'every charge to settle');

    for (const view of final as ChargeView[]) {
      const taken = stack.sim.intents().filter((i) => i.metadata.charge_id === view.id && i.status === 'succeeded');
      expect(taken.length).toBeLessThanOrEqual(1);
      if (taken.length === 1 && view.status !== 'in_review') {
        expect(view.attempts.filter((a) => a.status === 'succeeded').map((a) => a.providerChargeId)).toEqual([taken[0].id]);
      }
      for (const attempt of view.attempts.filter((a) => a.status === 'unknown')) {
        expect(await stack.db.getRepository(ReviewItemEntity).countBy({ attemptId: attempt.id, state: 'open' })).toBe(1);
      }
    }
    expect(Math.max(...Object.values(stack.sim.stats().createsByIdempotencyKey))).toBe(1);
  });
});
