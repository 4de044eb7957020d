import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '@app/auth';
import type { ChargeView } from '@app/charges';
import type { FeedPage } from '@app/events';
import { ReplicaReader } from '@app/database/replica';
import { metricsRegistry } from '@app/observability';
import { startPostgresPair, type PostgresPair } from '../apps/bench/src/postgres-pair.js';
import { newChargeBody, startTestStack, type TestStack } from './support/test-stack.js';
import { waitFor } from './support/wait-for.js';

/** What the lookup tolerates (charge-lookup.query.ts): within it the standby answers, past it the primary. */
const LOOKUP_STALENESS_TOLERATED_MS = 5_000;

async function createCharge(stack: TestStack): Promise<ChargeView> {
  const res = await stack.http.post('/charges').set(stack.auth('merchant')).send(newChargeBody());
  expect(res.status).toBe(201);
  return res.body as ChargeView;
}

async function lookedUp(stack: TestStack, charge: ChargeView): Promise<string[]> {
  const res = await stack.http.get('/finance/charges').query({ query: charge.orderId }).set(stack.auth('reviewer'));
  expect(res.status).toBe(200);
  return (res.body as { items: Array<{ id: string }> }).items.map((hit) => hit.id);
}

/**
 * DATABASE_REPLICA_URL set to a real streaming standby (pg_basebackup -R) of the service's primary. Replay on the
 * standby is paused (pg_wal_replay_pause) to make its lag visible: the lookup screen answers from the standby (stale)
 * while a money route reads the primary; once the lag passes what the lookup tolerates, the primary answers it.
 */
describe('reads on DATABASE_REPLICA_URL', () => {
  let pair: PostgresPair;
  let stack: TestStack;
  let standby: pg.Client;

  beforeAll(async () => {
    pair = await startPostgresPair();
    stack = await startTestStack({ env: { DATABASE_URL: pair.url, DATABASE_REPLICA_URL: pair.standbyUrl } });
    standby = new pg.Client({ connectionString: pair.standbyUrl });
    await standby.connect();
  }, 120_000);
  afterAll(async () => {
    await standby?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await standby?.end();
    await stack?.close();
    await pair?.close();
  });

  it('serves the lookup from the standby, falls back to the primary past its staleness, and never a money route', async () => {
    const reader = stack.app.get(ReplicaReader);
    const [{ recovery }] = await reader.query<{ recovery: boolean }>(60_000, 'SELECT pg_is_in_recovery() AS recovery');
    expect(recovery).toBe(true);
    const sessions = await standby.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'charge-once-replica-reader'`);
    expect(sessions.rows[0].n).toBeGreaterThan(0);

    // A caught-up standby has no lag: a charge is on the screen once replayed.
    const before = await createCharge(stack);
    await waitFor(() => lookedUp(stack, before), (ids) => ids.includes(before.id), 10_000, 'the standby to replay the first charge');

    await standby.query('SELECT pg_wal_replay_pause()');
    await waitFor(async () => (await standby.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state, (s) => s === 'paused', 5_000, 'replay to pause');
    const paused = Date.now();
    const fresh = await createCharge(stack);
    const onStandby = async () => (await standby.query('SELECT 1 FROM charges WHERE id = $1', [fresh.id])).rowCount;

    // The standby is behind by less than the lookup tolerates: the screen shows the standby's (stale) picture...
    expect(await lookedUp(stack, fresh)).toEqual([]);
    expect(Date.now() - paused).toBeLessThan(LOOKUP_STALENESS_TOLERATED_MS);
    // ...while the money route reads the primary and submits the charge the standby has not seen.
    const submitted = await stack.http.post(`/charges/${fresh.id}/submit`).set(stack.auth('merchant'));
    expect(submitted.status).toBe(200);
    expect((submitted.body as ChargeView).status).toBe('succeeded');
    expect(await onStandby()).toBe(0);

    // Past the tolerated lag the primary answers the screen, though the standby still lacks the charge.
    const found = await waitFor(() => lookedUp(stack, fresh), (ids) => ids.includes(fresh.id), 15_000, 'the lookup to fall back to the primary');
    expect(found).toEqual([fresh.id]);
    expect(await onStandby()).toBe(0);

    await standby.query('SELECT pg_wal_replay_resume()');
    await waitFor(onStandby, (n) => n === 1, 10_000, 'the standby to replay the charge');
    // What the operator sees of it: the standby's reads, and the primary's because of the lag.
    expect(await readsServed()).toMatchObject({ 'replica:fresh': expect.any(Number), 'primary:lag': expect.any(Number) });
    expect((await readsServed())['primary:no_replica']).toBeUndefined();
  }, 60_000);

  it("serves a page of event history from the standby, and the feed's head from the primary", async () => {
    const name = `replica-feed-${randomUUID().slice(0, 8)}`;
    const token = await stack.app.get(ApiTokenService).create(name, 'merchant');
    const [{ id: merchantId }] = await stack.db.query<Array<{ id: string }>>(`SELECT id FROM merchants WHERE name = $1`, [name]);
    const emit = async (): Promise<string> => {
      const objectId = randomUUID();
      const [{ id }] = await stack.db.query<Array<{ id: string }>>(`SELECT emit_event($1, 'charge.succeeded', 'charge', $2, $3::jsonb, 'succeeded') AS id`, [
        merchantId,
        objectId,
        JSON.stringify({ id: objectId, object: 'charge' }),
      ]);
      return id;
    };
    const feed = async (query: Record<string, unknown>): Promise<FeedPage> => {
      const res = await stack.http.get('/events').query(query).set({ Authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      return res.body as FeedPage;
    };
    // Four events of two minutes ago: the history a client that was down for a while pages through.
    const old: string[] = [];
    for (let i = 0; i < 4; i++) old.push(await emit());
    await stack.db.query(`UPDATE events SET created_at = created_at - interval '2 minutes' WHERE merchant_id = $1`, [merchantId]);
    const replayed = async () => (await standby.query(`SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND created_at < now() - interval '1 minute'`, [merchantId])).rows[0].n;
    await waitFor(replayed, (n) => n === 4, 10_000, 'the standby to replay the old events');

    const first = await feed({ limit: 1 });
    expect(first.data.map((e) => e.id)).toEqual([old[0]]);

    await standby.query('SELECT pg_wal_replay_pause()');
    await waitFor(async () => (await standby.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0].state, (s) => s === 'paused', 5_000, 'replay to pause');
    const fresh = await emit();
    const fromStandby = async () => (await readsServed())['replica:fresh'] ?? 0;

    // A full page of history: the standby's, though it has not seen the newest event.
    const servedBefore = await fromStandby();
    const history = await feed({ after: first.nextCursor, limit: 2 });
    expect(history.data.map((e) => e.id)).toEqual([old[1], old[2]]);
    expect(history.hasMore).toBe(true);
    expect(await fromStandby()).toBe(servedBefore + 1);

    // The page that reaches the head: the standby's ends at old[3], so the primary answers, the fresh event included.
    const head = await feed({ after: history.nextCursor, limit: 2 });
    expect(head.data.map((e) => e.id)).toEqual([old[3], fresh]);
    expect((await standby.query('SELECT 1 FROM events WHERE id = $1', [fresh])).rowCount).toBe(0);
    // And a cursor at the head reads the primary at once, the standby not even asked.
    const servedAtHead = await fromStandby();
    expect((await feed({ after: head.nextCursor, limit: 2 })).data).toEqual([]);
    expect(await fromStandby()).toBe(servedAtHead);
    await standby.query('SELECT pg_wal_replay_resume()');
  }, 60_000);

  it('refuses a write made through the reader: the standby is read-only, and so is the session on it', async () => {
    const reader = stack.app.get(ReplicaReader);
    await expect(reader.query(60_000, `INSERT INTO scheduled_runs (name, last_started_at) VALUES ('replica-write', now())`)).rejects.toMatchObject({ driverError: { code: '25006' } });
  });
});

describe('reads without DATABASE_REPLICA_URL', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { DATABASE_REPLICA_URL: undefined } });
  }, 60_000);
  afterAll(async () => stack?.close());

  it('go to the primary, fresh at once, and still in a read-only session', async () => {
    const reader = stack.app.get(ReplicaReader);
    const [{ recovery }] = await reader.query<{ recovery: boolean }>(0, 'SELECT pg_is_in_recovery() AS recovery');
    expect(recovery).toBe(false);
    const charge = await createCharge(stack);
    expect(await lookedUp(stack, charge)).toEqual([charge.id]);
    expect(Object.keys(await readsServed())).toEqual(['primary:no_replica']);
    await expect(reader.query(60_000, `INSERT INTO scheduled_runs (name, last_started_at) VALUES ('replica-write', now())`)).rejects.toMatchObject({ driverError: { code: '25006' } });
  });
});

/** charge_once_replica_reads_total as this process's /metrics would show it: reads by `served_by:reason`. */
async function readsServed(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('charge_once_replica_reads_total')?.get();
  return Object.fromEntries((metric?.values ?? []).map(({ labels, value }) => [`${labels.served_by}:${labels.reason}`, value]));
}
