import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startSimulator } from '@app/simulator';
import { checkInvariants } from './chaos-invariants.js';
import { intArg, startService, waitForHealth, type ServiceProcess } from './bench-process.js';
import { freePortNumber } from './free-port.js';
import { startPostgresPair } from './postgres-pair.js';

/** A request slower than this hangs, as far as a client is concerned. */
const HANG_MS = 10_000;

/**
 * `npm run chaos -- --failover [--charges=N --c=C]`: a storm against a real api and worker on a PostgreSQL primary
 * and a synchronous streaming standby behind PgBouncer in session mode (postgres-pair.ts, the machine's own binaries).
 * A third of the way in, the primary is SIGKILLed, the standby promoted and PgBouncer pointed at it; nothing is
 * restarted. Prints the re-point time, how many requests answered 503 (with Retry-After, which the client honours)
 * and the invariants: 0 doubles, every charge the api answered 2xx for present, every attempt resolved or in review.
 * Returns the exit code.
 */
export async function runPostgresFailoverChaos(): Promise<number> {
  const chargeCount = intArg('charges', 120);
  const concurrency = intArg('c', 8);
  const quietMs = intArg('quiet-minutes', 2) * 60_000;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const token = randomBytes(24).toString('hex');
  const prefix = `chaos-failover-${randomUUID().slice(0, 8)}`;
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

  const pair = await startPostgresPair();
  const sim = await startSimulator({ port: 0, controlPort: 0 });
  sim.configure({ createLatencyMs: 100 });
  const port = await freePortNumber();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: pair.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    STRIPE_API_BASE: sim.apiUrl,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
    PROVIDER_CONNECT_TIMEOUT_MS: '300',
    PROVIDER_READ_TIMEOUT_MS: '1000',
    SUBMIT_LEASE_MS: '1500',
    SWEEPER_INTERVAL_MS: '300',
    RESOLUTION_BACKOFF_MS: '300,600,1200,2400',
    RESOLUTION_MAX_TRIES: '12',
    CONSISTENT_LOOKUP_GRACE_MS: '3000',
  };
  const services: ServiceProcess[] = [startService('api', { ...env, PORT: String(port), API_TOKENS: `merchant:chaos-failover:${token}` }), startService('worker', env)];
  const db = new pg.Pool({ connectionString: pair.url, max: 2 });
  db.on('error', () => undefined); // idle clients die with the primary; queries after the switch reconnect
  const answers: Array<{ status: number; ms: number; retryAfter: string | null }> = [];
  let networkErrors = 0;
  let keysInFlight = 0;

  /** One call as a client makes it: on a 503 it waits as Retry-After says and asks again; never longer than 3 minutes. */
  const call = async (method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<{ status: number; body: { id?: string; details?: { chargeId: string } } | null }> => {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const t0 = Date.now();
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answer = (await response.json().catch(() => null)) as { id?: string; details?: { chargeId: string } } | null;
        answers.push({ status: response.status, ms: Date.now() - t0, retryAfter: response.headers.get('retry-after') });
        // A create cut short by the switch may hold its Idempotency-Key until the key's lease ends: asked again, as a client would.
        const inFlight = response.status === 409 && (answer as { code?: string } | null)?.code === 'idempotency_key_in_flight';
        if (response.status !== 503 && !inFlight) return { status: response.status, body: answer };
        if (inFlight) keysInFlight++;
        await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 1) * 250));
      } catch {
        networkErrors++;
        await new Promise((r) => setTimeout(r, 250));
      }
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no answer but 503 or a key in flight for 180 s`);
    }
  };

  let exitCode = 0;
  try {
    await waitForHealth(base, 60_000);
    console.log(`chaos --failover  charges=${chargeCount} c=${concurrency}: 1 api + 1 worker on ${pair.url} (PgBouncer, session mode) -> primary + synchronous standby`);
    const answered2xx: string[] = [];
    const chargeIds: string[] = [];
    let next = 0;
    let failover: Promise<number> | undefined;
    const failoverAt = Math.floor(chargeCount / 3);
    const client = async () => {
      while (next < chargeCount) {
        const i = next++;
        if (i === failoverAt) {
          console.log(`  [${seconds()} s] fault: primary SIGKILLed; standby promoted, PgBouncer re-pointed`);
          failover = pair.failover().then(({ promotedInMs }) => (console.log(`  [${seconds()} s] re-pointed in ${promotedInMs} ms`), promotedInMs));
        }
        const body = { orderId: `${prefix}-${i}`, amountCents: 1000 + i, currency: 'usd', customerId: `cus_failover_${i}`, paymentMethodId: 'pm_card_visa' };
        const created = await call('POST', '/charges', body, `create-${prefix}-${i}`);
        const id = created.body?.id ?? created.body?.details?.chargeId;
        if (!id) throw new Error(`create ${i}: ${created.status} ${JSON.stringify(created.body)}`);
        if (created.status < 300) answered2xx.push(id);
        chargeIds.push(id);
        const submitted = await call('POST', `/charges/${id}/submit`);
        if (submitted.status < 300) answered2xx.push(id);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const promotedInMs = await failover;
    console.log(`  load done in ${seconds()} s; waiting for quiet`);

    const deadline = Date.now() + quietMs;
    let open = -1;
    while (Date.now() < deadline) {
      const { rows } = await db
        .query<{ n: number }>(
          `SELECT count(*)::int AS n FROM attempts a WHERE a.charge_id = ANY($1) AND a.operation = 'charge'
              AND (a.status = 'pending' OR (a.status = 'unknown' AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed')))`,
          [chargeIds],
        )
        .catch(() => ({ rows: [{ n: -1 }] }));
      open = rows[0].n;
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    const unavailable = answers.filter((a) => a.status === 503);
    const slowest = Math.max(0, ...answers.map((a) => a.ms));
    const { rows: present } = await db.query<{ id: string }>('SELECT id FROM charges WHERE id = ANY($1)', [[...new Set(answered2xx)]]);
    const missing = [...new Set(answered2xx)].filter((id) => !present.some((row) => row.id === id));
    const { rows: outcome } = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM attempts WHERE charge_id = ANY($1) AND operation = 'charge' GROUP BY 1 ORDER BY 1`,
      [chargeIds],
    );
    console.log(`\n  re-point time           ${promotedInMs} ms`);
    console.log(`  requests                ${answers.length} answered (${networkErrors} connection errors), ${unavailable.length} answered 503, ${keysInFlight} answered 409 key in flight, slowest ${slowest} ms`);
    console.log(`  attempts                ${outcome.map((r) => `${r.status}=${r.n}`).join(' ')}; provider intents ${sim.intents().length}`);
    console.log('\n  invariants');
    const results = [
      ...(await checkInvariants(db, sim, chargeIds)),
      { name: 'every charge the api answered 2xx for is present after the switch', violations: missing.map((id) => `${id}: missing`) },
      { name: 'every 503 carried Retry-After', violations: unavailable.filter((a) => a.retryAfter === null).map((a) => `a 503 after ${a.ms} ms without it`) },
      { name: `no request hung (each answered within ${HANG_MS / 1000} s)`, violations: answers.filter((a) => a.ms >= HANG_MS).map((a) => `${a.status} after ${a.ms} ms`) },
      { name: 'no 5xx but 503', violations: answers.filter((a) => a.status >= 500 && a.status !== 503).map((a) => `${a.status} after ${a.ms} ms`) },
      { name: 'quiet: no attempt pending or unknown without a review item', violations: open === 0 ? [] : [`${open} open`] },
    ];
    for (const result of results) {
      console.log(`    ${result.violations.length ? 'FAIL' : 'ok  '} ${result.name}${result.violations.length ? ` (${result.violations.length})` : ''}`);
      for (const violation of result.violations.slice(0, 5)) console.log(`         ${violation}`);
      if (result.violations.length) exitCode = 1;
    }
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await db.end();
    await sim.close();
    await pair.close();
  }
  return exitCode;
}
