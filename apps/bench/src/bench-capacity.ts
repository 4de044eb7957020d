import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { startSimulator } from '@app/simulator';
import { DIST, intArg, startService, waitForHealth } from './bench-process.js';
import { databaseBackendsCpuSeconds } from './database-cpu.js';
import { startEventReceiver } from './event-receiver.js';
import { freePortNumber } from './free-port.js';
import { statementsSentBy } from './statement-count.js';

/**
 * `npm run bench:capacity -- --n=3000 --c=8`: what one charge costs each tier, measured end to end, and what this
 * machine's PostgreSQL and Redis can take, so README's capacity table is arithmetic on measured figures, not a guess.
 * N charges are created and submitted by C clients through a real api and worker, with the merchant's one webhook
 * endpoint enabled (a receiver that verifies every event) and every delivery waited for, so the worker's share is
 * in. Per charge: CPU of the api, the worker and the PostgreSQL backends; statements the api sent; commits in the
 * database (pg_stat_database); Redis commands (INFO of a Redis started for this bench alone, so nothing else on
 * the machine is counted). Then the engines' own ceilings on the same cores: `pgbench` (simple-update, one commit
 * per transaction) and `redis-benchmark`. Not a test: it measures, it does not assert.
 */
const run = promisify(execFile);
const n = intArg('n', 3000);
const c = intArg('c', 8);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_capacity';
const database = new URL(databaseUrl).pathname.slice(1);
const token = randomBytes(24).toString('hex');
const countFile = join(tmpdir(), `bench-capacity-queries-${process.pid}`);
const cores = cpus().length;
const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');

const redisPort = await freePortNumber();
const redisDir = mkdtempSync(join(tmpdir(), 'bench-capacity-redis-'));
const redisServer = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
const redisUrl = `redis://127.0.0.1:${redisPort}`;
await waitFor(() => run('redis-cli', ['-p', String(redisPort), 'ping']).then(() => true, () => false));
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });

await migrateDatabase(databaseUrl);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const sim = await startSimulator({ port: 0, controlPort: 0 });
const receiver = await startEventReceiver();
const port = await freePortNumber();
const shared = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  QUEUE_PREFIX: `capacity-${randomUUID().slice(0, 8)}`,
  EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
const worker = startService('worker', shared);
// The per-token budget at a production-like size (the benches' default is unlimited): its Redis leases are counted.
const api = startService('api', { ...shared, API_RATE_LIMIT: '600000', PORT: String(port), API_TOKENS: `merchant:${token}`, BENCH_QUERY_COUNT_FILE: countFile }, ['--import', `${DIST}apps/bench/src/count-queries.preload.js`]);
const base = `http://127.0.0.1:${port}`;
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

try {
  await waitForHealth(base);
  const created = await fetch(`${base}/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, description: 'capacity receiver' }) });
  if (created.status !== 201) throw new Error(`POST /webhook-endpoints answered ${created.status}: ${await created.text()}`);
  const endpoint = (await created.json()) as { id: string; secret: string };
  receiver.trust(endpoint.secret);

  // A tenth of the load first, unmeasured: JIT, pools and caches warm, and its deliveries drained.
  await drive(Math.ceil(n / 10));
  await allDelivered(endpoint.id);
  const before = await readCounters();
  const started = performance.now();
  const failures = await drive(n);
  const driveSeconds = (performance.now() - started) / 1000;
  await allDelivered(endpoint.id);
  // pg_stat_database is flushed by each backend at most once a second.
  await new Promise((r) => setTimeout(r, 1500));
  const after = await readCounters();
  if (failures > 0) throw new Error(`${failures} charges did not succeed`);
  const per = (key: Exclude<keyof Counters, 'redisByCommand'>) => (after[key] - before[key]) / n;
  const figures = {
    apiCpuMs: 1000 * per('apiCpu'),
    workerCpuMs: 1000 * per('workerCpu'),
    postgresCpuMs: 1000 * per('postgresCpu'),
    statements: per('statements'),
    commits: per('commits'),
    redisCommands: per('redisCommands'),
  };
  const topRedis = Object.entries(after.redisByCommand)
    .map(([name, calls]) => [name, (calls - (before.redisByCommand[name] ?? 0)) / n] as const)
    .filter(([, calls]) => calls > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  await Promise.all([api.stop(), worker.stop()]);

  const pgbenchTps = await pgbenchCommitsPerSecond();
  const redisOps = await redisBenchmarkOpsPerSecond();

  console.log(`bench:capacity  N=${n} C=${c}  load average at start ${loadAtStart}, at end ${loadavg().map((l) => l.toFixed(2)).join(' ')} (${cores} cores)`);
  console.log(`  end to end with one webhook endpoint: ${(n / driveSeconds).toFixed(1)} charges/s, ${receiver.events.size} events received and verified`);
  console.log(
    `  per charge: api CPU ${figures.apiCpuMs.toFixed(2)} ms, worker CPU ${figures.workerCpuMs.toFixed(2)} ms, PostgreSQL backends CPU ${figures.postgresCpuMs.toFixed(2)} ms; ` +
      `${figures.statements.toFixed(2)} statements from the api, ${figures.commits.toFixed(2)} commits in the database, ${figures.redisCommands.toFixed(2)} Redis commands`,
  );
  console.log(`    Redis commands per charge, most used: ${topRedis.map(([name, calls]) => `${name} ${calls.toFixed(2)}`).join(', ')}`);
  console.log(`  this machine's engines alone: pgbench ${pgbenchTps.toFixed(0)} commits/s (simple-update, ${c} clients), redis-benchmark ${redisOps.toFixed(0)} ops/s (SET/GET, 50 clients, no pipelining)`);
  console.log('  sizing (cores = charges/s × CPU ms per charge / 1000; commits and Redis commands are per second):');
  console.log('  | charges/s | api cores | worker cores | PostgreSQL cores | commits/s | × this PostgreSQL | Redis commands/s | × this Redis |');
  console.log('  |---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const rate of [100, 1000, 10000]) {
    const commits = rate * figures.commits;
    const redisRate = rate * figures.redisCommands;
    console.log(
      `  | ${rate} | ${((rate * figures.apiCpuMs) / 1000).toFixed(1)} | ${((rate * figures.workerCpuMs) / 1000).toFixed(1)} | ${((rate * figures.postgresCpuMs) / 1000).toFixed(1)} | ` +
        `${commits.toFixed(0)} | ${(commits / pgbenchTps).toFixed(2)} | ${redisRate.toFixed(0)} | ${(redisRate / redisOps).toFixed(2)} |`,
    );
  }
  console.log(`capacity: api ${figures.apiCpuMs.toFixed(2)} + worker ${figures.workerCpuMs.toFixed(2)} + PostgreSQL ${figures.postgresCpuMs.toFixed(2)} ms CPU, ${figures.commits.toFixed(2)} commits, ${figures.redisCommands.toFixed(1)} Redis commands per charge`);
} finally {
  await Promise.all([api.stop(), worker.stop()]);
  await Promise.all([sim.close(), receiver.close(), db.end()]);
  redis.disconnect();
  redisServer.kill('SIGKILL');
  rmSync(redisDir, { recursive: true, force: true });
}

interface Counters {
  apiCpu: number;
  workerCpu: number;
  postgresCpu: number;
  statements: number;
  commits: number;
  redisCommands: number;
  redisByCommand: Record<string, number>;
}

async function readCounters(): Promise<Counters> {
  // INFO itself is one command: read Redis first, so the reads below are not in its count.
  const [stats, commandstats] = [await redis.info('stats'), await redis.info('commandstats')];
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query<{ commits: string }>('SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = $1', [database]);
  const redisByCommand: Record<string, number> = {};
  for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) redisByCommand[match[1]] = Number(match[2]);
  return {
    apiCpu: api.cpuSeconds(),
    workerCpu: worker.cpuSeconds(),
    postgresCpu: databaseBackendsCpuSeconds(database),
    statements: await statementsSentBy(api, countFile),
    commits: Number(rows[0].commits),
    redisCommands: Number(/total_commands_processed:(\d+)/.exec(stats)?.[1] ?? 0),
    redisByCommand,
  };
}

/** C clients creating and submitting `count` charges; the number that did not end `succeeded`. */
async function drive(count: number): Promise<number> {
  let next = 0;
  let failures = 0;
  const runId = randomUUID().slice(0, 8);
  const client = async () => {
    while (next < count) {
      const i = next++;
      const body = { orderId: `capacity-${runId}-${i}`, amountCents: 1000 + (i % 500), currency: 'usd', customerId: `cus_capacity_${i % 97}`, paymentMethodId: 'pm_card_visa' };
      const res = await fetch(`${base}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
      const { id } = (await res.json()) as { id: string };
      const view = (await (await fetch(`${base}/charges/${id}/submit`, { method: 'POST', headers })).json()) as { status: string };
      if (view.status !== 'succeeded') failures++;
    }
  };
  await Promise.all(Array.from({ length: c }, client));
  return failures;
}

async function allDelivered(endpointId: string): Promise<void> {
  await waitFor(async () => {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND state <> 'delivered'`, [endpointId]);
    return rows[0].n === 0;
  }, 120_000);
}

/** Commits/s of the machine's PostgreSQL on pgbench's simple-update script, in a scratch database dropped after. */
async function pgbenchCommitsPerSecond(): Promise<number> {
  const url = new URL(databaseUrl);
  const scratch = `${database}_pgbench`;
  const connection = ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres'];
  const pgbench = await pgBinary('pgbench');
  await db.query(`DROP DATABASE IF EXISTS ${scratch}`);
  await db.query(`CREATE DATABASE ${scratch}`);
  try {
    await run(pgbench, [...connection, '-i', '-q', '-s', '10', scratch]);
    const { stdout } = await run(pgbench, [...connection, '-N', '-c', String(c), '-j', String(Math.min(c, cores)), '-T', '15', scratch]);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Number(tps[1]);
  } finally {
    await db.query(`DROP DATABASE IF EXISTS ${scratch}`);
  }
}

async function redisBenchmarkOpsPerSecond(): Promise<number> {
  const { stdout } = await run('redis-benchmark', ['-p', String(redisPort), '-q', '-n', '200000', '-c', '50', '-t', 'set,get', '--csv']);
  const rates = [...stdout.matchAll(/^"(?:SET|GET)","([\d.]+)"/gm)].map((m) => Number(m[1]));
  if (rates.length !== 2) throw new Error(`redis-benchmark printed no rates:\n${stdout}`);
  return (rates[0] + rates[1]) / 2;
}

/** pgbench from PATH, or from the newest PostgreSQL under /usr/lib/postgresql (Debian keeps it off PATH). */
async function pgBinary(name: string): Promise<string> {
  try {
    await run(name, ['--version']);
    return name;
  } catch {
    const { stdout } = await run('sh', ['-c', `ls -d /usr/lib/postgresql/*/bin/${name} | sort -V | tail -1`]);
    if (!stdout.trim()) throw new Error(`${name} is not installed (Debian: postgresql-client or postgresql)`);
    return stdout.trim();
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
