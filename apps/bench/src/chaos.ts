import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { createRedisClient } from '@app/queues';
import { startSimulator } from '@app/simulator';
import { describeStuckAttempts } from './chaos-diagnosis.js';
import { checkEventInvariants, registerReceiver, waitForDeliveries, type MerchantReceiver } from './chaos-events.js';
import { checkInvariants } from './chaos-invariants.js';
import { intArg, startService, waitForHealth, type ServiceProcess } from './bench-process.js';
import { EmbeddedCluster } from '../../launcher/src/embedded-cluster.js';
import { freePortNumber } from './free-port.js';
import { runPostgresFailoverChaos } from './chaos-failover.js';

/**
 * `npm run chaos -- --seed=S --charges=N [--apis=A --workers=W]`: the long storm against real processes. A apis
 * (default 1; the client sends each call to the next one, round robin, so a double click lands on two) and W
 * workers (default 2) on
 * an embedded PostgreSQL of its own (restarted mid-run without touching any shared database) and REDIS_URL;
 * the simulator injects every provider fault (seeded) and duplicates, reorders and drops webhooks. During the
 * load: a PostgreSQL restart, a Redis flush (every key under this run's QUEUE_PREFIX, so a shared Redis loses
 * nothing of anyone else's), a kill -9 of a worker and, with two apis or more, a kill -9 of an api. Then it waits for quiet and checks DESIGN.md section 13
 * against the provider's records. Two merchants (one charge in ten is the second's) each have a webhook
 * endpoint whose receiver verifies every event with `standardwebhooks`: afterwards every committed event reached
 * its own merchant's receiver, under one webhook-id, and never the other's. Prints faults by kind and each
 * invariant; exits 1 on any violation. `--failover` runs the PostgreSQL failover storm instead (chaos-failover.ts).
 */
// `--failover`: the PostgreSQL primary replaced mid-storm (chaos-failover.ts), instead of the storm below.
if (process.argv.includes('--failover')) {
  process.exitCode = await runPostgresFailoverChaos();
  process.exit();
}
const seed = intArg('seed', 20261203);
const chargeCount = intArg('charges', 300);
const concurrency = intArg('c', 12);
const quietMinutes = intArg('quiet-minutes', 5);
const apiCount = intArg('apis', 1);
const workerCount = intArg('workers', 2);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `chaos-${randomUUID().slice(0, 8)}`;
const token = randomBytes(24).toString('hex');
/** The second merchant: its events must never reach the first one's endpoint, nor the first's reach it. */
const tokenB = randomBytes(24).toString('hex');
const ports = await Promise.all(Array.from({ length: apiCount }, () => freePortNumber()));
const bases = ports.map((p) => `http://127.0.0.1:${p}`);
let nextApi = 0;
/** Hours of provider behaviour in seconds, so the storm quiets down within minutes. */
const TIMINGS = {
  PROVIDER_CONNECT_TIMEOUT_MS: '500',
  PROVIDER_READ_TIMEOUT_MS: '1000',
  SUBMIT_LEASE_MS: '4000',
  SUBMIT_RETRY_BACKOFF_MS: '200,500,1000,2000',
  RESOLUTION_BACKOFF_MS: '500,1000,2000,4000',
  RESOLUTION_MAX_TRIES: '12',
  CONSISTENT_LOOKUP_GRACE_MS: '3000',
  SWEEPER_INTERVAL_MS: '2000',
  STRIPE_QUERY_RATE_PER_S: '200',
};

const dataDir = mkdtempSync(join(tmpdir(), 'charge-once-chaos-'));
chmodSync(dataDir, 0o755); // as root the cluster runs as `postgres`, who must reach its folder
const cluster = await EmbeddedCluster.start(join(dataDir, 'postgres'), await freePortNumber());
const databaseUrl = cluster.url('charge_once_chaos');
await migrateDatabase(databaseUrl);
const sim = await startSimulator({ port: 0, controlPort: 0 });
// Webhooks go to the last api: with two, a webhook often lands on another process than the submit it answers.
sim.configure({ hangMs: 1500, webhook: { url: `${bases[apiCount - 1]}/webhooks/stripe`, duplicates: 1, reorder: true, dropRate: 0.3 } });
sim.setFaults({
  random: {
    seed,
    rates: {
      reset_before_read: 0.06,
      hang_before_create: 0.04,
      hang_after_create: 0.08,
      create_late: 0.04,
      '500_before_create': 0.05,
      '500_after_create': 0.06,
      '429': 0.08,
      '409': 0.04,
      decline: 0.08,
    },
  },
});
const env = {
  ...TIMINGS,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: prefix,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
  EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
const apiEnv = (i: number) => ({ ...env, PORT: String(ports[i]), API_TOKENS: `merchant:chaos-a:${token},merchant:chaos-b:${tokenB}` });
const apis: ServiceProcess[] = ports.map((_, i) => startService('api', apiEnv(i)));
const workers: ServiceProcess[] = Array.from({ length: workerCount }, () => startService('worker', env));
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
db.on('error', () => undefined); // idle clients die with the PostgreSQL restart; queries after it reconnect
const infra: Record<string, number> = { postgres_restarts: 0, redis_flushes: 0, worker_kill9: 0, api_kill9: 0, client_retries: 0, create_answer_lost: 0 };
const started = performance.now();
let exitCode = 0;

try {
  await Promise.all(bases.map((b) => waitForHealth(b, 60_000)));
  console.log(
    `chaos  seed=${seed} charges=${chargeCount} c=${concurrency}: ${apiCount} api(s) + ${workerCount} workers, embedded PostgreSQL ${cluster.port}, Redis ${redisUrl} (prefix ${prefix})`,
  );
  const merchants: MerchantReceiver[] = [await registerReceiver(bases[0], token), await registerReceiver(bases[0], tokenB)];
  const chargeIds: string[] = [];
  // Clients finish out of order, so a charge's position in chargeIds says nothing about whose it is.
  const ownerOf = new Map<string, string>();
  let next = 0;
  const faultsAt = { postgres: Math.floor(chargeCount / 4), api: Math.floor((3 * chargeCount) / 8), worker: Math.floor(chargeCount / 2), redis: Math.floor((3 * chargeCount) / 4) };
  const client = async () => {
    while (next < chargeCount) {
      const i = next++;
      if (i === faultsAt.postgres) void restartPostgres();
      if (i === faultsAt.worker) killAndReplaceWorker();
      if (i === faultsAt.api && apiCount > 1) killAndReplaceApi();
      if (i === faultsAt.redis) void flushRedis();
      const body = { orderId: `chaos-${prefix}-${i}`, amountCents: 1000 + i, currency: 'usd', customerId: `cus_chaos_${i}`, paymentMethodId: 'pm_card_visa' };
      // The create carries an Idempotency-Key, so retrying it through a restart never makes two charges.
      const as = i % 10 === 9 ? tokenB : token;
      const created = (await call('POST', '/charges', body, `create-${prefix}-${i}`, as)) as { id?: string; details?: { chargeId: string } };
      if (!created.id) infra.create_answer_lost++;
      const id = created.id ?? created.details!.chargeId;
      chargeIds.push(id);
      ownerOf.set(id, as);
      // A double click: two submits at once.
      await Promise.all([call('POST', `/charges/${id}/submit`, undefined, undefined, as), call('POST', `/charges/${id}/submit`, undefined, undefined, as)]);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  console.log(`  load done in ${seconds()} s; customers retry the failed ones once`);
  const failed = await db.query<{ id: string }>(
    `SELECT c.id FROM charges c WHERE c.id = ANY($1) AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.charge_id = c.id AND a.status <> 'failed')`,
    [chargeIds],
  );
  await Promise.all(failed.rows.map((r) => call('POST', `/charges/${r.id}/submit`, undefined, undefined, ownerOf.get(r.id))));

  const quiet = await waitForQuiet(chargeIds, quietMinutes * 60_000);
  await sim.webhooksIdle();
  console.log(quiet ? `  quiet after ${seconds()} s` : `  NOT quiet after ${quietMinutes} min: invariants below are checked anyway`);
  if (!quiet) {
    exitCode = 1;
    for (const line of await describeStuckAttempts(db, redisUrl, prefix, chargeIds)) console.log(`    ${line}`);
  }

  const stats = sim.stats();
  console.log('\n  faults by kind');
  const faults: Record<string, number> = { ...stats.faultsInjected, webhook_duplicated: stats.webhooks.duplicated, webhook_dropped: stats.webhooks.dropped, ...infra };
  for (const [kind, count] of Object.entries(faults).sort()) console.log(`    ${kind.padEnd(22)} ${count}`);
  const { rows: outcome } = await db.query<{ status: string; n: number }>(
    `SELECT a.status, count(*)::int AS n FROM attempts a WHERE a.charge_id = ANY($1) AND a.operation = 'charge' GROUP BY 1 ORDER BY 1`,
    [chargeIds],
  );
  console.log(`\n  attempts: ${outcome.map((r) => `${r.status}=${r.n}`).join(' ')}; provider intents ${sim.intents().length}`);
  console.log('\n  invariants');
  for (const result of await checkInvariants(db, sim, chargeIds)) {
    console.log(`    ${result.violations.length ? 'FAIL' : 'ok  '} ${result.name}${result.violations.length ? ` (${result.violations.length})` : ''}`);
    for (const violation of result.violations.slice(0, 5)) console.log(`         ${violation}`);
    if (result.violations.length) exitCode = 1;
  }
  const pending = await waitForDeliveries(db, merchants.map((m) => m.merchantId), quietMinutes * 60_000);
  console.log(`\n  merchant events: ${merchants.map((m) => `${m.receiver.events.size} received by ${m.merchantId.slice(0, 8)}… (${m.receiver.rejected()} refused signatures)`).join(', ')}; ${pending} deliveries still pending`);
  for (const result of await checkEventInvariants(db, merchants)) {
    console.log(`    ${result.violations.length ? 'FAIL' : 'ok  '} ${result.name}${result.violations.length ? ` (${result.violations.length})` : ''}`);
    for (const violation of result.violations.slice(0, 5)) console.log(`         ${violation}`);
    if (result.violations.length) exitCode = 1;
  }
  await Promise.all(merchants.map((m) => m.receiver.close()));
} finally {
  await Promise.all([...apis, ...workers].map((p) => p.stop()));
  await purgeRedisPrefix().catch(() => undefined);
  await db.end();
  await sim.close();
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = exitCode;

function seconds(): string {
  return ((performance.now() - started) / 1000).toFixed(0);
}

/**
 * One API call, retried while the api cannot answer (a restart under it) or the request's Idempotency-Key is
 * still held by a request the restart cut short (taken over after 120 s): every call here is safe to repeat.
 */
async function call(method: string, path: string, body?: unknown, idempotencyKey?: string, as = token): Promise<unknown> {
  const headers = { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' };
  const deadline = Date.now() + 180_000;
  for (;;) {
    let last: string;
    try {
      const base = bases[nextApi++ % apiCount];
      const response = await fetch(`${base}${path}`, {
        method,
        headers: idempotencyKey ? { ...headers, 'Idempotency-Key': idempotencyKey } : headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => null)) as { code?: string } | null;
      // An order that already has its charge (our first try committed, its answer was lost) names it.
      if (response.status < 500 && (response.status !== 409 || answer?.code === 'charge_exists')) return answer;
      last = `${response.status} ${JSON.stringify(answer)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${method} ${path}: still failing after 180 s: ${last}`);
    infra.client_retries++;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function restartPostgres(): Promise<void> {
  console.log(`  [${seconds()} s] fault: PostgreSQL stopped`);
  await cluster.restart(1500);
  infra.postgres_restarts++;
  console.log(`  [${seconds()} s] PostgreSQL back`);
}

function killAndReplaceWorker(): void {
  console.log(`  [${seconds()} s] fault: kill -9 of a worker; a new one starts`);
  workers[0].child.kill('SIGKILL');
  workers[0] = startService('worker', env);
  infra.worker_kill9++;
}

function killAndReplaceApi(): void {
  console.log(`  [${seconds()} s] fault: kill -9 of api 0 mid-load; a new one starts on its port`);
  apis[0].child.kill('SIGKILL');
  // The port is free once the kernel has closed the dead process's socket.
  apis[0].child.once('exit', () => (apis[0] = startService('api', apiEnv(0))));
  infra.api_kill9++;
}

async function flushRedis(): Promise<void> {
  const deleted = await purgeRedisPrefix();
  infra.redis_flushes++;
  console.log(`  [${seconds()} s] fault: Redis flushed (${deleted} keys of this run's queues deleted)`);
}

async function purgeRedisPrefix(): Promise<number> {
  // One Redis only: SCAN walks one server's keys (chaos runs on the single shape).
  const redis = createRedisClient({ REDIS_URL: redisUrl });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = nextCursor;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Quiet: no attempt pending, and every unknown one has a person on it. */
async function waitForQuiet(chargeIds: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db
      .query<{ n: number }>(
        `SELECT count(*)::int AS n FROM attempts a WHERE a.charge_id = ANY($1) AND a.operation = 'charge'
            AND (a.status = 'pending' OR (a.status = 'unknown' AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed')))`,
        [chargeIds],
      )
      .catch(() => [{ n: -1 }] as never);
    if (rows[0]?.n === 0) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}
