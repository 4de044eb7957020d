import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { intArg, percentile, startService, waitForHealth } from './bench-process.js';

/**
 * `npm run bench:lists -- [--rows=100000] [--n=300]`: a fresh database, one merchant with ROWS charges (seeded
 * in SQL with their list rows, statuses spread), then N sequential requests each of `GET /charges?limit=50`,
 * `GET /charges?status=failed&limit=50` and `GET /charges/:id`, interleaved so all three meet the same load,
 * over HTTP against the built api. Prints p50/p95 of each, the list's ratio to one GET by id, and the list
 * statement's own execution time in PostgreSQL. Not a test: it measures, it does not assert.
 */
const rows = intArg('rows', 100_000);
const n = intArg('n', 300);
const port = 3990 + Math.floor(Math.random() * 9);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench_lists';
const token = randomBytes(24).toString('hex');
const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');

const admin = new URL(databaseUrl);
const name = admin.pathname.slice(1);
admin.pathname = '/postgres';
const server = new pg.Client({ connectionString: admin.toString() });
await server.connect();
await server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
await server.end();
await migrateDatabase(databaseUrl);

const api = startService('api', { DATABASE_URL: databaseUrl, PORT: String(port), API_TOKENS: `merchant:${token}`,
  STRIPE_API_BASE: 'http://127.0.0.1:9', STRIPE_SECRET_KEY: 'sk_test_simulator', EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});
const base = `http://127.0.0.1:${port}`;
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
const db = new pg.Client({ connectionString: databaseUrl });
try {
  await waitForHealth(base);
  await db.connect();
  const first = await fetch(`${base}/charges`, { method: 'POST', headers, body: JSON.stringify({ orderId: 'bench-first', amountCents: 1000, currency: 'usd', customerId: 'cus_1', paymentMethodId: 'pm_card_visa' }) });
  const { id: oneId, merchantId } = (await first.json()) as { id: string; merchantId: string };
  if (first.status !== 201) throw new Error(`POST /charges: ${first.status} ${JSON.stringify({ oneId, merchantId })}`);
  const seedStarted = performance.now();
  // Fixtures, triggers off: the list rows are written as the triggers would, with statuses spread over the set.
  await db.query(`SET session_replication_role = replica`);
  await db.query(
    `INSERT INTO charges (id, order_id, amount_cents, currency, customer_id, provider, created_by, merchant_id, created_at)
     SELECT gen_random_uuid(), 'seed-' || g, 1000 + g % 500, 'usd', 'cus_' || (g % 5000), 'stripe', 'bench', $1, now() - g * interval '1 second'
       FROM generate_series(1, ${rows}) g`,
    [merchantId],
  );
  await db.query(
    `INSERT INTO list_statuses SELECT 'charge', id, merchant_id,
            (ARRAY['succeeded','failed','processing','refunded','in_review'])[1 + abs(hashtext(id::text)) % 5], created_at
       FROM charges WHERE order_id LIKE 'seed-%'`,
  );
  await db.query(`SET session_replication_role = DEFAULT`);
  await db.query('ANALYZE');
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const timed = async (path: string): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return ms;
  };
  const paths = { list: '/charges?limit=50', filtered: '/charges?status=failed&limit=50', one: `/charges/${oneId}` };
  const samples: Record<keyof typeof paths, number[]> = { list: [], filtered: [], one: [] };
  for (let i = 0; i < 30; i++) for (const path of Object.values(paths)) await timed(path); // warm-up: plans, JIT
  for (let i = 0; i < n; i++) for (const key of Object.keys(paths) as Array<keyof typeof paths>) samples[key].push(await timed(paths[key]));

  const sqlMs = async (status: string | null): Promise<number> => {
    const plan = await db.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT c.id FROM ${status ? 'list_statuses s JOIN charges c ON c.id = s.object_id' : 'charges c JOIN list_statuses s ON s.object_id = c.id'}
        WHERE s.object_type = 'charge' AND ${status ? 's.scope_id = $1 AND s.status = $2 AND c.merchant_id = $1 ORDER BY s.created_at DESC, s.object_id DESC' : 'c.merchant_id = $1 ORDER BY c.created_at DESC, c.id DESC'} LIMIT 51`,
      status ? [merchantId, status] : [merchantId],
    );
    return plan.rows[0]['QUERY PLAN'][0]['Execution Time'];
  };
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  };
  const [list, filtered, one] = [stats(samples.list), stats(samples.filtered), stats(samples.one)];
  console.log(`bench:lists  ${rows} charges of one merchant (seeded in ${seedSeconds.toFixed(1)} s), ${n} sequential requests each`);
  console.log(`  load average at start: ${loadAtStart}  at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  GET /charges?limit=50                p50 ${list.p50.toFixed(1)} ms  p95 ${list.p95.toFixed(1)} ms  (${(list.p50 / one.p50).toFixed(2)}× one GET by id)`);
  console.log(`  GET /charges?status=failed&limit=50  p50 ${filtered.p50.toFixed(1)} ms  p95 ${filtered.p95.toFixed(1)} ms  (${(filtered.p50 / one.p50).toFixed(2)}×)`);
  console.log(`  GET /charges/:id                     p50 ${one.p50.toFixed(1)} ms  p95 ${one.p95.toFixed(1)} ms`);
  console.log(`  list statement in PostgreSQL: ${(await sqlMs(null)).toFixed(2)} ms unfiltered, ${(await sqlMs('failed')).toFixed(2)} ms by status`);
  console.log(`  target: list of 50 p50 < 20 ms: ${list.p50 < 20 ? 'met' : 'NOT met'}`);
} finally {
  await db.end().catch(() => undefined);
  await api.stop();
}
