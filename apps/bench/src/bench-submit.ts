import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { migrateDatabase } from '@app/database';
import { startSimulator } from '@app/simulator';
import { intArg, percentile, startService, waitForHealth } from './bench-process.js';

/**
 * `npm run bench:submit -- --n=5000 --c=8`: creates and submits N charges from C concurrent clients
 * against a zero-latency simulator, through a real api process, and prints throughput, submit latency
 * and the api's peak RSS. Not a test: it measures, it does not assert.
 */
const n = intArg('n', 5000);
const c = intArg('c', 8);
const port = 3900 + Math.floor(Math.random() * 90);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench';
const token = randomBytes(24).toString('hex');

await migrateDatabase(databaseUrl);
const sim = await startSimulator({ port: 0, controlPort: 0 });
const api = startService('api', {
  PORT: String(port),
  DATABASE_URL: databaseUrl,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  QUEUE_PREFIX: `bench-${randomUUID().slice(0, 8)}`,
  API_TOKENS: `merchant:${token}`,
});
const base = `http://127.0.0.1:${port}`;
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

try {
  await waitForHealth(base);
  const submitMs: number[] = [];
  let next = 0;
  let failures = 0;
  const run = randomUUID().slice(0, 8);
  const client = async () => {
    while (next < n) {
      const i = next++;
      const body = { orderId: `bench-${run}-${i}`, amountCents: 1000 + (i % 500), currency: 'usd', customerId: `cus_bench_${i % 97}`, paymentMethodId: 'pm_card_visa' };
      const created = await fetch(`${base}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
      const { id } = (await created.json()) as { id: string };
      const started = performance.now();
      const submitted = await fetch(`${base}/charges/${id}/submit`, { method: 'POST', headers });
      const view = (await submitted.json()) as { status: string };
      submitMs.push(performance.now() - started);
      if (view.status !== 'succeeded') failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: c }, client));
  const seconds = (performance.now() - started) / 1000;
  submitMs.sort((a, b) => a - b);
  const stats = sim.stats();
  const maxPerKey = Math.max(...Object.values(stats.createsByIdempotencyKey));
  console.log(`bench:submit  N=${n} C=${c}`);
  console.log(`  charges/s (create + submit): ${(n / seconds).toFixed(1)}  (${seconds.toFixed(1)} s total)`);
  console.log(`  submit latency p50: ${percentile(submitMs, 50).toFixed(1)} ms  p99: ${percentile(submitMs, 99).toFixed(1)} ms`);
  console.log(`  api peak RSS: ${api.peakRssMiB().toFixed(0)} MiB`);
  console.log(`  provider intents: ${stats.intentsCreated}, most intents for one key: ${maxPerKey}, charges not succeeded: ${failures}`);
} finally {
  await api.stop();
  await sim.close();
}
