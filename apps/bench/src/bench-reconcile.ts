import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { intArg, startService, waitForHealth } from './bench-process.js';
import { CHARGES, PAYOUTS, day, planted } from './bench-reconcile.subjects.js';

/**
 * `npm run bench:reconcile -- --lines=1000000`: seeds N succeeded attempts and an N-line statement day at
 * the simulator (plus 3 provider-only charges), then reconciles the day with a real api and worker from dist/
 * (the api queues the run, the worker executes it), once through the provider's report file and once through
 * API paging, each in fresh processes. Prints seconds, lines/s, the worker's peak RSS (VmHWM), the time of each
 * phase as the worker logged it, and the CPU this bench process (serving the simulator's day) and the worker
 * used during the run. Asserts nothing; checks the outcome.
 * The same is done first for a baseline day (`--baseline-lines`, default 10 000) in a database of its own, and
 * the peak RSS of the large day is printed as a ratio of the baseline's, measured in the same run: memory must
 * not grow with the day. `--reuse-db` skips re-seeding a database that already holds the same number of lines.
 * `--subject=payouts` does the same for Pix payouts: N succeeded payout attempts and an N-line sent-Pix day at the
 * Efí simulator (plus 3 transfers of no payout of ours), reconciled through the paged API (Efí has no report file).
 */
const lines = intArg('lines', 10_000);
const baselineLines = intArg('baseline-lines', 10_000);
const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench');
const subjectArg = process.argv.find((a) => a.startsWith('--subject='))?.slice('--subject='.length) ?? 'charges';
if (subjectArg !== 'charges' && subjectArg !== 'payouts') throw new Error(`--subject must be charges or payouts, got ${subjectArg}`);

const subject = subjectArg === 'payouts' ? PAYOUTS : CHARGES;

interface SourceResult {
  source: 'report' | 'api';
  line: string;
  peakRssMiB: number;
}

const baseline = lines === baselineLines ? null : await benchDay(baselineLines, '_reconcile_baseline');
const measured = await benchDay(lines, '_reconcile');
for (const result of measured) {
  const against = baseline?.find((b) => b.source === result.source);
  if (against) {
    console.log(
      `  ${result.source.padEnd(6)} peak RSS at ${lines} lines is ${(result.peakRssMiB / against.peakRssMiB).toFixed(2)}x the peak RSS at ${baselineLines} lines ` +
        `(${result.peakRssMiB.toFixed(0)} / ${against.peakRssMiB.toFixed(0)} MiB)`,
    );
  }
}

/** Seeds (or reuses) a database and a simulator day of `count` lines, and reconciles it through both sources. */
async function benchDay(count: number, suffix: string): Promise<SourceResult[]> {
  // A database of its own per size, recreated each time: the day must hold exactly what this bench seeds.
  const databaseUrl = new URL(base);
  databaseUrl.pathname = `${base.pathname}${suffix}`;
  // --reuse-db keeps a database an earlier run of the same size seeded (seeding a million rows takes minutes).
  const reuse = process.argv.includes('--reuse-db') && (await seededCount(databaseUrl)) === count;
  if (!reuse) {
    const admin = new pg.Client({ connectionString: Object.assign(new URL(base), { pathname: '/postgres' }).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${databaseUrl.pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  }
  await migrateDatabase(databaseUrl.toString());

  const provider = await subject.start();
  const db = new pg.Pool({ connectionString: databaseUrl.toString(), max: 4 });
  console.log(`bench:reconcile  ${subjectArg} lines=${count}: seeding ${count} succeeded attempts and a ${count + planted}-line statement for ${day} (UTC)...`);
  const seedStarted = performance.now();
  const BATCH = 100_000;
  if (reuse) {
    // DELETE, not TRUNCATE: refunds reference proposals, and the run leaves only a handful of these rows.
    for (const table of ['reconciliation_run_divergences', 'refund_proposals', 'reconciliation_money_movements', 'reconciliation_divergences', 'reconciliation_runs']) {
      await db.query(`DELETE FROM ${table}`);
    }
  }
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    if (!reuse) await subject.seed(db, from, to, count);
    provider.plant(from, to, count);
  }
  provider.plantProviderOnly();
  await db.query('ANALYZE');
  console.log(
    `  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s${reuse ? ' (database reused)' : ''}; ` +
      `this process (holding the simulator's day) at ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
  );
  const results: SourceResult[] = [];
  try {
    for (const source of subject.sources) results.push(await reconcileIn(source, count, databaseUrl, provider.env));
  } finally {
    await db.end();
    await provider.close();
  }
  for (const result of results) console.log(result.line);
  return results;
}

async function reconcileIn(source: 'report' | 'api', lines: number, databaseUrl: URL, providerEnv: Record<string, string>): Promise<SourceResult> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const token = `admin-${randomUUID()}`;
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    ...providerEnv,
    QUEUE_PREFIX: `bench-reconcile-${randomUUID().slice(0, 8)}`,
    RECONCILIATION_TZ: 'UTC',
    RECONCILIATION_CRON: 'off',
    RECONCILIATION_REPORT_POLL_MS: '50',
    RECONCILIATION_LEASE_MS: '30000',
  };
  // The api records the run and answers 202; the worker executes it and logs its time per phase, read from its log.
  const api = startService('api', { ...env, PORT: String(port), API_TOKENS: `admin:${token}` });
  const phases = new Map<string, Record<string, number>>();
  const worker = startService('worker', { ...env, LOG_LEVEL: 'info' }, [], (logLine) => {
    const entry = parsedLog(logLine);
    if (entry?.msg === 'reconciliation run succeeded' && typeof entry.runId === 'string') phases.set(entry.runId, entry.phasesMs as Record<string, number>);
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, 180_000);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const workerCpuBefore = worker.cpuSeconds();
    const created = await fetch(`${url}/reconciliation/runs`, { method: 'POST', headers, body: JSON.stringify({ provider: subject.provider, date: day, source }) });
    if (created.status !== 202) throw new Error(`POST /reconciliation/runs answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    let run!: { status: string; linesRead: number; matched: number; divergences: Record<string, number>; error: string | null; startedAt: string; finishedAt: string };
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      // A poll that meets a reset keep-alive socket (the api busy for seconds on a large day) asks again.
      const polled = await fetch(`${url}/reconciliation/runs/${id}`, { headers }).catch(() => null);
      if (!polled?.ok) continue;
      run = (await polled.json()) as typeof run;
      if (run.status !== 'running') break;
    }
    const wall = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const workerCpu = worker.cpuSeconds() - workerCpuBefore;
    if (run.status !== 'succeeded') throw new Error(`run ${source} ${run.status}: ${run.error}`);
    const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
    const ok = run.linesRead === lines + planted && run.matched === lines && run.divergences.provider_only === planted && run.divergences.missing_at_provider === 0;
    const peakRssMiB = worker.peakRssMiB();
    // Wait briefly for the log line: it is written just after the run's row says succeeded.
    for (let i = 0; i < 50 && !phases.has(id); i += 1) await new Promise((r) => setTimeout(r, 20));
    const line =
      `  ${source.padEnd(6)} ${String(run.linesRead).padStart(8)} lines in ${seconds.toFixed(1)} s (${Math.round(run.linesRead / seconds)} lines/s; ` +
      `${wall.toFixed(1)} s from request to answer), worker peak RSS ${peakRssMiB.toFixed(0)} MiB; matched ${run.matched}, ` +
      `divergences ${JSON.stringify(run.divergences)} ${ok ? '(as seeded)' : '(NOT as seeded)'}\n` +
      `         phases (s): ${formatPhases(phases.get(id))}\n` +
      `         CPU: this bench process (the simulator serving the day) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s = ${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(0)} % of one core; ` +
      `worker ${workerCpu.toFixed(1)} s = ${((workerCpu / wall) * 100).toFixed(0)} %`;
    return { source, line, peakRssMiB };
  } finally {
    await api.stop();
    await worker.stop();
  }
}

function parsedLog(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function formatPhases(phasesMs: Record<string, number> | undefined): string {
  if (!phasesMs) return 'not logged';
  return Object.entries(phasesMs)
    .map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(2)}`)
    .join(', ');
}

async function seededCount(databaseUrl: URL): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  try {
    await client.connect();
    return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${subject.seededTable}`)).rows[0].n;
  } catch {
    return -1;
  } finally {
    await client.end().catch(() => undefined);
  }
}
