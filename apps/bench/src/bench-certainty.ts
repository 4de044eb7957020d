import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { startSimulator, type FaultRule } from '@app/simulator';
import { intArg, percentile, startService, waitForHealth } from './bench-process.js';
import { startEventReceiver } from './event-receiver.js';

/**
 * `npm run certainty -- --n=500 --c=25 --max-minutes=20`: how long an unknown attempt stays unknown at the
 * DEFAULT timings (15 s read timeout, 2 s first query, 5 min grace before "not found" counts). N charges go
 * through a real api and worker against the simulator, a third each with a lost response (the intent is
 * created, the answer never comes), a 500 before creating, and a 500 after creating; half of all webhooks
 * are dropped. Prints time to certainty (unknown_since → resolved_at, read from the database) p50/p90/p99 by
 * fault and by what resolved it, and time to merchant knowledge: from the submit (when the provider held the truth)
 * to the merchant's receiver getting the charge's final event, verified with `standardwebhooks`. A benchmark, not a
 * test: it asserts nothing.
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

const env = {
  DATABASE_URL: databaseUrl,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
  QUEUE_PREFIX: `cert-${run}`,
  EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
/** The final event of each charge, when the merchant's receiver first had it. */
const FINAL = new Set(['charge.succeeded', 'charge.failed', 'charge.captured_late']);
const knownAt = new Map<string, { type: string; at: number }>();
const receiver = await startEventReceiver((event) => {
  if (FINAL.has(event.type) && !knownAt.has(event.objectId)) knownAt.set(event.objectId, { type: event.type, at: event.firstReceivedAt });
});
const api = startService('api', { ...env, PORT: String(port), API_TOKENS: `merchant:${token}` });
const worker = startService('worker', env);
const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

try {
  await waitForHealth(base);
  const endpoint = await fetch(`${base}/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: [...FINAL] }) });
  if (endpoint.status !== 201) throw new Error(`POST /webhook-endpoints answered ${endpoint.status}`);
  receiver.trust(((await endpoint.json()) as { secret: string }).secret);
  console.log(`certainty  N=${n} (a third each: ${FAULTS.map((f) => LABEL[f]).join(', ')}), half of all webhooks dropped, default timings`);
  const chargeIds: string[] = [];
  const submittedAt = new Map<string, number>();
  let next = 0;
  const client = async () => {
    while (next < n) {
      const i = next++;
      const body = { orderId: `cert-${run}-${i}`, amountCents: 1000 + i, currency: 'usd', customerId: customerOf(i), paymentMethodId: 'pm_card_visa' };
      const created = await fetch(`${base}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
      const { id } = (await created.json()) as { id: string };
      chargeIds.push(id);
      submittedAt.set(id, Date.now());
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
  await reportMerchantKnowledge(chargeIds, submittedAt);
} finally {
  await Promise.all([api.stop(), worker.stop()]);
  await receiver.close();
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

/** Provider truth (the submit) to the merchant's receiver holding the final event; waits up to a minute for stragglers. */
async function reportMerchantKnowledge(chargeIds: string[], submittedAt: Map<string, number>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (chargeIds.some((id) => !knownAt.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const byType = new Map<string, number[]>();
  for (const id of chargeIds) {
    const known = knownAt.get(id);
    if (!known) continue;
    byType.set(known.type, [...(byType.get(known.type) ?? []), (known.at - (submittedAt.get(id) ?? known.at)) / 1000]);
  }
  const all = [...byType.values()].flat().sort((a, b) => a - b);
  console.log('\n  time to merchant knowledge (seconds from the submit to the receiver holding the final event):');
  for (const [type, values] of [...byType.entries(), ['all final events', all] as [string, number[]]]) {
    values.sort((a, b) => a - b);
    console.log(`  ${type.padEnd(46)} ${String(values.length).padStart(5)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(values, 90).toFixed(1).padStart(8)} ${percentile(values, 99).toFixed(1).padStart(8)}`);
  }
  const missing = chargeIds.length - all.length;
  if (missing > 0) console.log(`  ${missing} charges had no final event at the receiver (in review, or still open)`);
  console.log(`  receiver: ${receiver.events.size} events, ${receiver.rejected()} refused signatures`);
}
