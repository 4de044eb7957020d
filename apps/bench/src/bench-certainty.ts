import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { startSimulator, type FaultRule } from '@app/simulator';
import { intArg, percentile, startService, waitForHealth } from './bench-process.js';

/**
 * `npm run certainty -- --n=500 --c=25 --max-minutes=20`: how long an unknown attempt stays unknown at the
 * DEFAULT timings (15 s read timeout, 2 s first query, 5 min grace before "not found" counts). N charges go
 * through a real api and worker against the simulator, a third each with a lost response (the intent is
 * created, the answer never comes), a 500 before creating, and a 500 after creating; half of all webhooks
 * are dropped. Prints time to certainty (unknown_since → resolved_at, read from the database) p50/p90/p99 by
 * fault and by what resolved it. A benchmark, not a test: it asserts nothing.
 */
const n = intArg('n', 500);
const c = intArg('c', 25);
const maxMinutes = intArg('max-minutes', 20);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench';
const port = 3800 + Math.floor(Math.random() * 90);
const token = randomBytes(24).toString('hex');
const run = randomUUID().slice(0, 8);
const FAULTS = ['hang_after_create', '500_before_create', '500_after_create'] as const;
const LABEL: Record<(typeof FAULTS)[number], string> = {
  hang_after_create: 'lost response',
  '500_before_create': '500 before create',
  '500_after_create': '500 after create',
};

await migrateDatabase(databaseUrl);
const sim = await startSimulator({ port: 0, controlPort: 0 });
const base = `http://127.0.0.1:${port}`;
sim.configure({ webhook: { url: `${base}/webhooks/stripe`, dropRate: 0.5 } });
const customerOf = (i: number) => `cus_cert_${run}_${i}`;
const rules: FaultRule[] = Array.from({ length: n }, (_, i) => ({ fault: FAULTS[i % 3], match: { customerId: customerOf(i) }, times: 1 }));
sim.setFaults({ rules });

const env = { DATABASE_URL: databaseUrl, STRIPE_API_BASE: sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator', STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator', QUEUE_PREFIX: `cert-${run}` };
const api = startService('api', { ...env, PORT: String(port), API_TOKENS: `merchant:${token}` });
const worker = startService('worker', env);
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

try {
  await waitForHealth(base);
  console.log(`certainty  N=${n} (a third each: ${FAULTS.map((f) => LABEL[f]).join(', ')}), half of all webhooks dropped, default timings`);
  const chargeIds: string[] = [];
  let next = 0;
  const client = async () => {
    while (next < n) {
      const i = next++;
      const body = { orderId: `cert-${run}-${i}`, amountCents: 1000 + i, currency: 'usd', customerId: customerOf(i), paymentMethodId: 'pm_card_visa' };
      const created = await fetch(`${base}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
      const { id } = (await created.json()) as { id: string };
      chargeIds.push(id);
      await fetch(`${base}/charges/${id}/submit`, { method: 'POST', headers });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: c }, client));
  console.log(`  submitted in ${((performance.now() - started) / 1000).toFixed(0)} s; waiting for every attempt to be certain (at most ${maxMinutes} min)`);

  const deadline = Date.now() + maxMinutes * 60_000;
  let open = n;
  while (open > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5000));
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM attempts WHERE charge_id = ANY($1) AND operation = 'charge' AND status IN ('pending','unknown')`,
      [chargeIds],
    );
    open = rows[0].n;
  }
  const waited = (performance.now() - started) / 1000;
  if (open > 0) console.log(`  STOPPED after ${waited.toFixed(0)} s with ${open} attempts still open: the figures below are only those resolved so far`);
  else console.log(`  every attempt certain after ${waited.toFixed(0)} s`);
  await report(chargeIds);
} finally {
  await Promise.all([api.stop(), worker.stop()]);
  await db.end();
  await sim.close();
}

async function report(chargeIds: string[]): Promise<void> {
  const { rows } = await db.query<{ customer_id: string; status: string; resolved_by: string | null; seconds: number | null; was_unknown: boolean }>(
    `SELECT c.customer_id, a.status, a.resolved_by, a.unknown_since IS NOT NULL AS was_unknown,
            extract(epoch FROM a.resolved_at - a.unknown_since)::float8 AS seconds
       FROM charges c JOIN attempts a ON a.charge_id = c.id AND a.operation = 'charge'
      WHERE c.id = ANY($1)`,
    [chargeIds],
  );
  const groups = new Map<string, number[]>();
  const neverUnknown = new Map<string, number>();
  for (const row of rows) {
    const fault = LABEL[FAULTS[Number(row.customer_id.split('_').pop()) % 3]];
    if (!row.was_unknown) {
      const key = `${fault} → ${row.status} by ${row.resolved_by ?? 'nobody'}`;
      neverUnknown.set(key, (neverUnknown.get(key) ?? 0) + 1);
      continue;
    }
    const key = row.seconds === null ? `${fault} | still ${row.status}` : `${fault} | ${row.status} by ${row.resolved_by}`;
    groups.set(key, [...(groups.get(key) ?? []), row.seconds ?? Number.NaN]);
  }
  console.log('\n  time to certainty (seconds from unknown to terminal), read from attempts:');
  console.log(`  ${'fault | outcome'.padEnd(46)} ${'n'.padStart(5)} ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'p99'.padStart(8)}`);
  const all: number[] = [];
  for (const [key, values] of [...groups.entries()].sort()) {
    const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
    all.push(...sorted);
    const cell = (p: number) => (sorted.length ? percentile(sorted, p).toFixed(1) : '-').padStart(8);
    console.log(`  ${key.padEnd(46)} ${String(values.length).padStart(5)} ${cell(50)} ${cell(90)} ${cell(99)}`);
  }
  all.sort((a, b) => a - b);
  console.log(`  ${'all resolved unknowns'.padEnd(46)} ${String(all.length).padStart(5)} ${percentile(all, 50).toFixed(1).padStart(8)} ${percentile(all, 90).toFixed(1).padStart(8)} ${percentile(all, 99).toFixed(1).padStart(8)}`);
  if (neverUnknown.size) {
    console.log('\n  never unknown (a webhook settled the attempt while its call was still waiting):');
    for (const [key, count] of neverUnknown) console.log(`    ${key}: ${count}`);
  }
  const stats = sim.stats();
  console.log(`\n  faults injected: ${JSON.stringify(stats.faultsInjected)}; webhooks: ${JSON.stringify(stats.webhooks)}`);
}
