import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrateDatabase } from '@app/database';
import { startSimulator } from '@app/simulator';
import { DIST, intArg, percentile, startService, waitForHealth } from './bench-process.js';
import { compareWithEndpoint, printEndpointComparison } from './endpoint-phases.js';
import { databaseBackendsCpuSeconds } from './database-cpu.js';
import { dropScratchSchema, measureDbWriteRate, prepareScratchSchema } from './db-write-rate.js';
import { statementsSentBy } from './statement-count.js';

/**
 * `npm run bench:submit -- --n=5000 --c=8 [--profile] [--no-events]`: creates and submits N charges from C concurrent
 * clients against a zero-latency simulator, through a real api process, and prints throughput, submit latency
 * and the api's idle and peak RSS and CPU per charge. Before and after that, the same minimal writes of a charge run directly with `pg`
 * (C connections, a scratch copy of the tables): the database's own rate, which the api's rate is a ratio of.
 * The api counts the statements it sends (a `pg` wrapper preloaded by this bench only). `--profile` writes a
 * `--cpu-prof` profile of the api into the working directory. Then the same clients drive a floor server
 * (http-floor.server.ts: the same requests and provider call on bare node:http, no framework, no database) whose
 * rate bounds what any Node service can reach here. Then three more runs of the same load with one webhook endpoint
 * enabled, disabled, enabled (endpoint-phases.ts): the rate with events against the rate without, and the delivery
 * lag to a receiver that verifies every event. Not a test: it measures, it does not assert.
 */
const n = intArg('n', 5000);
const c = intArg('c', 8);
const profile = process.argv.includes('--profile');
/** `--no-events`: skip the three phases that measure the cost of one webhook endpoint. */
const skipEvents = process.argv.includes('--no-events');
const port = 3900 + Math.floor(Math.random() * 90);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench';
const database = new URL(databaseUrl).pathname.slice(1);
const token = randomBytes(24).toString('hex');
const countFile = join(tmpdir(), `bench-submit-queries-${process.pid}`);

const loadAtStart = loadAverage();
await migrateDatabase(databaseUrl);
await prepareScratchSchema(databaseUrl);
const dbRateBefore = await measureDbWriteRate(databaseUrl, n, c);
const sim = await startSimulator({ port: 0, controlPort: 0 });
// The worker runs in every phase, so the phases with a webhook endpoint pay only for the events themselves.
const shared = {
  DATABASE_URL: databaseUrl,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  QUEUE_PREFIX: `bench-${randomUUID().slice(0, 8)}`,
  EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
const worker = startService('worker', shared);
const api = startService(
  'api',
  {
    ...shared,
    PORT: String(port),
    API_TOKENS: `merchant:${token}`,
    BENCH_QUERY_COUNT_FILE: countFile,
  },
  ['--import', `${DIST}apps/bench/src/count-queries.preload.js`, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${process.cwd()}`] : [])],
);
const base = `http://127.0.0.1:${port}`;
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

/** C clients creating and submitting N charges in total against `url`: the rate, submit latencies and failures. */
async function drive(url: string, count = n): Promise<{ seconds: number; submitMs: number[]; failures: number }> {
  const submitMs: number[] = [];
  let next = 0;
  let failures = 0;
  const run = randomUUID().slice(0, 8);
  const client = async () => {
    while (next < count) {
      const i = next++;
      const body = { orderId: `bench-${run}-${i}`, amountCents: 1000 + (i % 500), currency: 'usd', customerId: `cus_bench_${i % 97}`, paymentMethodId: 'pm_card_visa' };
      const created = await fetch(`${url}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
      const { id } = (await created.json()) as { id: string };
      const started = performance.now();
      const submitted = await fetch(`${url}/charges/${id}/submit`, { method: 'POST', headers });
      const view = (await submitted.json()) as { status: string };
      submitMs.push(performance.now() - started);
      if (view.status !== 'succeeded') failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: c }, client));
  submitMs.sort((a, b) => a - b);
  return { seconds: (performance.now() - started) / 1000, submitMs, failures };
}

try {
  await waitForHealth(base);
  // A tenth of the load first, unmeasured: every phase below then runs on a warmed api (JIT, pools, caches).
  await drive(base, Math.ceil(n / 10));
  await new Promise((r) => setTimeout(r, 400));
  const queriesBefore = await statementsSentBy(api, countFile);
  const apiIdleRss = api.rssMiB();
  const [apiCpuBefore, apiSystemBefore, dbCpuBefore, benchCpuBefore, workerCpuBefore] = [api.cpuSeconds(), api.systemCpuSeconds(), databaseBackendsCpuSeconds(database), process.cpuUsage(), worker.cpuSeconds()];
  const { seconds, submitMs, failures } = await drive(base);
  const apiCpuMs = (1000 * (api.cpuSeconds() - apiCpuBefore)) / n;
  const apiSystemMs = (1000 * (api.systemCpuSeconds() - apiSystemBefore)) / n;
  const dbCpuMs = (1000 * (databaseBackendsCpuSeconds(database) - dbCpuBefore)) / n;
  const benchCpuMs = cpuMsSince(benchCpuBefore) / n;
  const workerCpuMs = (1000 * (worker.cpuSeconds() - workerCpuBefore)) / n;
  await new Promise((r) => setTimeout(r, 400));
  const statements = (await statementsSentBy(api, countFile)) - queriesBefore;
  const apiPeakRss = api.peakRssMiB();
  const withEndpoint = skipEvents ? null : await compareWithEndpoint(base, headers, databaseUrl, { api, worker }, drive, n, { rate: n / seconds, cpu: { api: apiCpuMs, worker: workerCpuMs, postgres: dbCpuMs, bench: benchCpuMs } });
  await Promise.all([api.stop(), worker.stop()]);
  // Read before the floor phase sends its own creates to the same simulator.
  const stats = sim.stats();
  const maxPerKey = Math.max(...Object.values(stats.createsByIdempotencyKey));
  const floor = await floorRate();
  const dbRateAfter = await measureDbWriteRate(databaseUrl, n, c);
  const dbRate = (dbRateBefore.rate + dbRateAfter.rate) / 2;
  const pgClientCpuMs = (dbRateBefore.clientCpuMs + dbRateAfter.clientCpuMs) / 2;
  const cores = cpus().length;
  // The most charges/s the cores allow, from what every process on them spent per charge (ms of CPU).
  const ceiling = (...cpuMs: number[]) => (1000 * cores) / cpuMs.reduce((a, b) => a + b, 0);
  const rate = n / seconds;
  const [p50, p99, floorP50, floorP99] = [percentile(submitMs, 50), percentile(submitMs, 99), percentile(floor.submitMs, 50), percentile(floor.submitMs, 99)];
  console.log(`charges/s (create + submit): ${rate.toFixed(1)}  (${seconds.toFixed(1)} s total)`);
  console.log(`bench:submit  N=${n} C=${c}  load average at start ${loadAtStart}, at end ${loadAverage()} (${cpus().length} cores)`);
  console.log(`  floor ratio: the api reaches ${((100 * rate) / floor.rate).toFixed(1)} % of the floor's rate (floor ${floor.rate.toFixed(1)} charges/s)`);
  console.log(`  CPU per charge: api ${apiCpuMs.toFixed(2)} ms, floor ${floor.cpuMs.toFixed(2)} ms, api / floor ${(apiCpuMs / floor.cpuMs).toFixed(2)}x`);
  console.log(`    of which system (kernel): api ${apiSystemMs.toFixed(2)} ms, floor ${floor.systemCpuMs.toFixed(2)} ms`);
  console.log(
    `    floor plus pg's own client work (the three statements sent and read, no application): ${(floor.cpuMs + pgClientCpuMs).toFixed(2)} ms, ` +
      `api / that ${(apiCpuMs / (floor.cpuMs + pgClientCpuMs)).toFixed(2)}x`,
  );
  console.log(
    `  CPU per charge on the machine: api ${apiCpuMs.toFixed(2)} + PostgreSQL ${dbCpuMs.toFixed(2)} + bench clients and simulator ${benchCpuMs.toFixed(2)} ms ` +
      `(floor phase: floor ${floor.cpuMs.toFixed(2)} + bench ${floor.benchCpuMs.toFixed(2)} ms)`,
  );
  console.log(
    `  ceiling on ${cores} cores: api ${ceiling(apiCpuMs, dbCpuMs, benchCpuMs).toFixed(0)} charges/s, floor ${ceiling(floor.cpuMs, floor.benchCpuMs).toFixed(0)}; ` +
      `an api as cheap as the floor, still writing to PostgreSQL: ${ceiling(floor.cpuMs, dbCpuMs, benchCpuMs).toFixed(0)} charges/s = ` +
      `${((100 * ceiling(floor.cpuMs, dbCpuMs, benchCpuMs)) / ceiling(floor.cpuMs, floor.benchCpuMs)).toFixed(1)} % of the floor's ceiling`,
  );
  console.log(`  submit p99 ratio: api / floor ${(p99 / floorP99).toFixed(2)}x  (p50 ratio ${(p50 / floorP50).toFixed(2)}x)`);
  console.log(`  RSS: api idle ${apiIdleRss.toFixed(0)} MiB, peak ${apiPeakRss.toFixed(0)} MiB; floor idle ${floor.idleRssMiB.toFixed(0)} MiB, peak ${floor.peakRssMiB.toFixed(0)} MiB`);
  console.log(`  provider intents: ${stats.intentsCreated}, most intents for one key: ${maxPerKey}, charges not succeeded: ${failures}`);
  console.log(
    `  database's own rate (same writes, pg, ${c} connections): before ${dbRateBefore.rate.toFixed(1)}/s, after ${dbRateAfter.rate.toFixed(1)}/s ` +
      `(CPU per charge: pg client ${pgClientCpuMs.toFixed(2)} ms, PostgreSQL ${((dbRateBefore.serverCpuMs + dbRateAfter.serverCpuMs) / 2).toFixed(2)} ms)`,
  );
  console.log(`  ratio to the database: ${((100 * rate) / dbRate).toFixed(1)} %`);
  console.log(
    `  HTTP floor (the same requests and provider call on bare node:http: no framework, no database): ${floor.rate.toFixed(1)} charges/s, ` +
      `${((100 * floor.rate) / dbRate).toFixed(1)} % of the database's rate`,
  );
  console.log(`  submit p50: ${p50.toFixed(1)} ms  p99: ${p99.toFixed(1)} ms  (floor: p50 ${floorP50.toFixed(1)} ms, p99 ${floorP99.toFixed(1)} ms)`);
  console.log(`  statements (round trips) per charge: ${(statements / n).toFixed(2)}  (${statements} in total)`);
  if (withEndpoint) printEndpointComparison(withEndpoint);
} finally {
  await Promise.all([api.stop(), worker.stop()]);
  await sim.close();
  await dropScratchSchema(databaseUrl);
  if (profile) console.log(`  api CPU profile: ${process.cwd()}/CPU.*.cpuprofile`);
}

/** The same load against the floor server (http-floor.server.ts), with the same simulator. */
async function floorRate(): Promise<{ rate: number; submitMs: number[]; cpuMs: number; systemCpuMs: number; benchCpuMs: number; idleRssMiB: number; peakRssMiB: number }> {
  const floorPort = port + 100;
  const server = startService({ script: 'apps/bench/src/http-floor.server.js' }, { PORT: String(floorPort), STRIPE_API_BASE: sim.apiUrl });
  try {
    await waitForHealth(`http://127.0.0.1:${floorPort}`);
    await new Promise((r) => setTimeout(r, 400));
    const idleRssMiB = server.rssMiB();
    const [cpuBefore, systemBefore, benchCpuBefore] = [server.cpuSeconds(), server.systemCpuSeconds(), process.cpuUsage()];
    const { seconds, submitMs, failures } = await drive(`http://127.0.0.1:${floorPort}`);
    const benchCpuMs = cpuMsSince(benchCpuBefore) / n;
    const cpuMs = (1000 * (server.cpuSeconds() - cpuBefore)) / n;
    const systemCpuMs = (1000 * (server.systemCpuSeconds() - systemBefore)) / n;
    if (failures > 0) throw new Error(`${failures} charges through the floor server did not succeed`);
    return { rate: n / seconds, submitMs, cpuMs, systemCpuMs, benchCpuMs, idleRssMiB, peakRssMiB: server.peakRssMiB() };
  } finally {
    await server.stop();
  }
}

/** This process's CPU (user + system) since `before`, in ms. */
function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}
