import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Bull from 'bull';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { GatewayRegistry, StripeGateway, stripePorts } from '@app/gateways';
import { resolutionQueueFor } from '@app/queues';
import { DIST, intArg, startService } from './bench-process.js';
import { ProviderArrivals } from './provider-arrivals.js';
import { startSimulatorProcess } from './simulator-process.js';
import { statementsSentBy } from './statement-count.js';

/**
 * `npm run bench:resolve -- --n=10000 --limit=200 --workers=2`: N unknown attempts (each of which did
 * create an intent at the simulator) are resolved by W real worker processes sharing a provider query
 * limit of L lookups/s. Prints the achieved lookup rate against L (from the first query's arrival at the
 * simulator to the last's, so the workers' boot is not counted against the limiter), the busiest sliding
 * second the simulator saw, the time to drain, and where each resolution's cost goes. The simulator runs as its
 * own process and stamps each query's arrival there: the bench's own stalls (seeding, polling, GC) would
 * otherwise hold requests in the kernel and stamp them together, a burst no provider would have counted.
 */
const n = intArg('n', 10_000);
const limit = intArg('limit', 200);
const workers = intArg('workers', 2);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `bench-${randomUUID().slice(0, 8)}`;

await migrateDatabase(databaseUrl);
const sim = await startSimulatorProcess();
const gateway = new StripeGateway({ apiBase: sim.apiUrl, secretKey: 'sk_test_bench', connectTimeoutMs: 3000, readTimeoutMs: 15_000 });
const registry = new GatewayRegistry([stripePorts(gateway)], 'stripe');
const db = new pg.Pool({ connectionString: databaseUrl, max: 8 });

console.log(`bench:resolve  N=${n} limit=${limit}/s workers=${workers}: seeding ${n} unknown attempts...`);
const run = randomBytes(4).toString('hex');
// The run's marker: its charges belong to a merchant of their own, so progress is one indexed count.
const merchant = `bench-resolve-${run}`;
const OF_THIS_RUN = `attempts a JOIN charges c ON c.id = a.charge_id JOIN merchants m ON m.id = c.merchant_id WHERE m.name = $1`;
const attemptIds: string[] = [];
for (let offset = 0; offset < n; offset += 500) {
  const batch = Array.from({ length: Math.min(500, n - offset) }, (_, k) => offset + k);
  await Promise.all(batch.map(async (i) => attemptIds.push(await seedUnknownAttempt(i))));
}

const queue = new Bull(resolutionQueueFor('stripe'), redisUrl, { prefix });
// Each worker counts the statements it sends (count-queries.preload): statements per resolution.
const countFiles = Array.from({ length: workers }, (_, w) => join(tmpdir(), `${prefix}-queries-${w}`));
const procs = countFiles.map((countFile) =>
  startService('worker', {
    BENCH_QUERY_COUNT_FILE: countFile,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    STRIPE_API_BASE: sim.apiUrl,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    STRIPE_QUERY_RATE_PER_S: String(limit),
    CONSISTENT_LOOKUP_GRACE_MS: '0',
  }, ['--import', `${DIST}apps/bench/src/count-queries.preload.js`]),
);
const statementsSent = async () => (await Promise.all(procs.map((proc, w) => statementsSentBy(proc, countFiles[w])))).reduce((a, b) => a + b, 0);
try {
  // Seeding sent only creates: every query the simulator has stamped from here on is the resolvers'.
  const lookupsBefore = (await sim.stats()).requests.lists;
  const started = performance.now();
  await queue.addBulk(attemptIds.map((attemptId) => ({ data: { attemptId }, opts: { jobId: `resolve:${attemptId}:0`, removeOnComplete: true, removeOnFail: true } })));
  let open = n;
  while (open > 0) {
    await new Promise((r) => setTimeout(r, 1000));
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${OF_THIS_RUN} AND a.status = 'unknown'`, [merchant]);
    open = rows[0].n;
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = await sim.stats();
  const lookups = stats.requests.lists - lookupsBefore;
  const arrivals = new ProviderArrivals(await sim.queryArrivals());
  const { rows } = await db.query<{ status: string; n: number }>(`SELECT a.status, count(*)::int AS n FROM ${OF_THIS_RUN} GROUP BY a.status`, [merchant]);
  // The rate the limiter kept: n queries spaced over (n - 1) gaps between the first arrival and the last.
  const paced = ((arrivals.count - 1) * 1000) / arrivals.spanMs();
  console.log(`  drained ${n} unknown attempts in ${seconds.toFixed(1)} s from enqueueing (the workers' boot included)`);
  console.log(`  provider lookups: ${lookups}, achieved ${paced.toFixed(1)}/s against a limit of ${limit}/s (${((100 * paced) / limit).toFixed(1)}%), first to last arrival at the simulator`);
  console.log(`  busiest 1 s window: ${arrivals.busiest()} lookups in any sliding second at the simulator, stamped in its own process (limit ${limit})`);
  await printCostPerResolution(lookups);
  console.log(`  outcome: ${rows.map((r) => `${r.status}=${r.n}`).join(' ')}; creates at the provider: ${stats.requests.creates} (one per attempt, none by the resolver)`);
  console.log(`  worker peak RSS: ${procs.map((p) => `${p.peakRssMiB().toFixed(0)} MiB`).join(', ')}; simulator CPU ${sim.service.cpuSeconds().toFixed(1)} s`);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await queue.obliterate({ force: true });
  await queue.close();
  await db.end();
  await sim.stop();
}

/** Where a resolution's time goes: its statements, the workers' CPU, the provider round trip. */
async function printCostPerResolution(lookups: number): Promise<void> {
  const { rows } = await db.query<{ p50: number; p99: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY p.duration_ms)::float8 AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY p.duration_ms)::float8 AS p99
       FROM provider_calls p WHERE p.kind = 'lookup' AND p.attempt_id IN (SELECT a.id FROM ${OF_THIS_RUN})`,
    [merchant],
  );
  const cpuMs = procs.reduce((sum, p) => sum + p.cpuSeconds(), 0) * 1000;
  console.log(`  per resolution: ${((await statementsSent()) / lookups).toFixed(1)} statements, ${(cpuMs / lookups).toFixed(2)} ms worker CPU (boot included); lookup round trip p50 ${rows[0].p50} ms, p99 ${rows[0].p99} ms`);
}

/** An attempt whose create reached the provider but whose answer was lost: unknown, intent exists. */
async function seedUnknownAttempt(i: number): Promise<string> {
  const chargeId = randomUUID();
  const attemptId = randomUUID();
  const key = randomUUID();
  const customerId = `cus_${run}_${i}`;
  const payload = registry.get('stripe').encodeCharge({ attemptId, chargeId, idempotencyKey: key, amountCents: 1500, currency: 'usd', customerId, paymentMethodId: 'pm_card_visa' });
  await db.query(
    `WITH merchant AS (
       INSERT INTO merchants (name) VALUES ($4) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)
     INSERT INTO charges (id, merchant_id, order_id, amount_cents, currency, customer_id, payment_method_id, provider, created_by)
     VALUES ($1, (SELECT id FROM merchant), $2, 1500, 'usd', $3, 'pm_card_visa', 'stripe', 'bench')`,
    [chargeId, `bench-resolve-${run}-${i}`, customerId, merchant],
  );
  await db.query(
    `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash, http_attempts, unknown_since, last_sent_at)
     VALUES ($1, $2, $3, 'stripe', 'unknown', $4, encode(sha256(convert_to($4, 'UTF8')), 'hex'), 1, now(), now())`,
    [attemptId, chargeId, key, payload],
  );
  const sent = await gateway.createCharge(key, payload);
  if (sent.kind !== 'response' || sent.httpStatus !== 200) throw new Error('seeding a provider intent failed');
  return attemptId;
}
