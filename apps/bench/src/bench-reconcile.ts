import { createHash, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrateDatabase } from '@app/database';
import { centsToValor } from '@app/gateways';
import { startEfiSimulator, startSimulator, type EfiSimulator, type Simulator } from '@app/simulator';
import { intArg, startService, waitForHealth } from './bench-process.js';

/**
 * `npm run bench:reconcile -- --lines=1000000`: seeds N succeeded attempts and an N-line statement day at
 * the simulator (plus 3 provider-only charges), then reconciles the day in a real api process from dist/,
 * once through the provider's report file and once through API paging, each in a fresh process. Prints
 * seconds, lines/s and the process's peak RSS (VmHWM) per path. Asserts nothing; checks the outcome.
 * The same is done first for a baseline day (`--baseline-lines`, default 10 000) in a database of its own, and
 * the peak RSS of the large day is printed as a ratio of the baseline's, measured in the same run: memory must
 * not grow with the day. `--reuse-db` skips re-seeding a database that already holds the same number of lines.
 * `--subject=payouts` does the same for Pix payouts: N succeeded payout attempts and an N-line sent-Pix day at the
 * Efí simulator (plus 3 transfers of no payout of ours), reconciled through the paged API (Efí has no report file).
 */
const lines = intArg('lines', 10_000);
const baselineLines = intArg('baseline-lines', 10_000);
const planted = 3;
const day = '2026-11-15';
const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench');
const subjectArg = process.argv.find((a) => a.startsWith('--subject='))?.slice('--subject='.length) ?? 'charges';
if (subjectArg !== 'charges' && subjectArg !== 'payouts') throw new Error(`--subject must be charges or payouts, got ${subjectArg}`);

/** What a day is made of: our side in the database, the provider's side at its simulator, and how the api reaches it. */
interface Subject {
  provider: 'stripe' | 'efi';
  sources: ReadonlyArray<'report' | 'api'>;
  start(): Promise<{ env: Record<string, string>; plant(from: number, to: number, count: number): void; plantProviderOnly(): void; close(): Promise<void> }>;
  seed(db: pg.Pool, from: number, to: number, count: number): Promise<void>;
  /** Table counted to tell whether a reused database holds this day. */
  seededTable: string;
}

const CHARGES: Subject = {
  provider: 'stripe',
  sources: ['report', 'api'],
  seededTable: `charge_attempts WHERE operation = 'charge'`,
  async start() {
    const sim: Simulator = await startSimulator({ port: 0, controlPort: 0 });
    return {
      // The simulator's key: a made-up sk_test key with the default webhook secret is refused at boot.
      env: { STRIPE_API_BASE: sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator' },
      plant(from, to, count) {
        const charges = [];
        for (let i = from; i <= to; i += 1) {
          charges.push({
            amount: 1000 + (i % 9000),
            created: dayStart + Math.floor(((i - 1) * 86400) / count),
            paymentIntentId: `pi_bench_${i}`,
            recordIntent: false,
            metadata: { attempt_id: uuidOf('a', i), charge_id: uuidOf('c', i) },
          });
        }
        sim.plantCharges(charges);
      },
      plantProviderOnly: () => sim.plantCharges(Array.from({ length: planted }, (_, i) => ({ amount: 777, created: dayStart + 3600 * (i + 1), recordIntent: false }))),
      close: () => sim.close(),
    };
  },
  seed: seedChargeAttempts,
};

const PAYOUTS: Subject = {
  provider: 'efi',
  sources: ['api'],
  seededTable: `charge_attempts WHERE operation = 'payout'`,
  async start() {
    const efi: EfiSimulator = await startEfiSimulator({ port: 0 });
    return {
      env: { EFI_API_BASE: efi.apiUrl, EFI_CLIENT_ID: 'efi_simulator_client', EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'payouts@charge-once.example' },
      plant(from, to, count) {
        const transfers = [];
        for (let i = from; i <= to; i += 1) {
          transfers.push({ idEnvio: uuidOf('a', i).replace(/-/g, ''), endToEndId: e2eOf(i), valor: centsToValor(1000 + (i % 9000)), requestedAt: new Date((dayStart + Math.floor(((i - 1) * 86400) / count)) * 1000) });
        }
        efi.plantTransfers(transfers);
      },
      plantProviderOnly: () =>
        efi.plantTransfers(Array.from({ length: planted }, (_, i) => ({ idEnvio: `foreign${i}`, endToEndId: e2eOf(10_000_000 + i), valor: '7.77', requestedAt: new Date((dayStart + 3600 * (i + 1)) * 1000) }))),
      close: () => efi.close(),
    };
  },
  seed: seedPayoutAttempts,
};

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

function uuidOf(tag: string, i: number): string {
  const h = createHash('md5').update(`${tag}${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

async function reconcileIn(source: 'report' | 'api', lines: number, databaseUrl: URL, providerEnv: Record<string, string>): Promise<SourceResult> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const token = `admin-${randomUUID()}`;
  const api = startService('api', {
    DATABASE_URL: databaseUrl.toString(),
    PORT: String(port),
    API_TOKENS: `admin:${token}`,
    ...providerEnv,
    RECONCILIATION_TZ: 'UTC',
    RECONCILIATION_REPORT_POLL_MS: '50',
    RECONCILIATION_LEASE_MS: '30000',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, 180_000);
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const started = performance.now();
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
    if (run.status !== 'succeeded') throw new Error(`run ${source} ${run.status}: ${run.error}`);
    const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
    const ok = run.linesRead === lines + planted && run.matched === lines && run.divergences.provider_only === planted && run.divergences.missing_at_provider === 0;
    const peakRssMiB = api.peakRssMiB();
    const line =
      `  ${source.padEnd(6)} ${String(run.linesRead).padStart(8)} lines in ${seconds.toFixed(1)} s (${Math.round(run.linesRead / seconds)} lines/s; ` +
      `${wall.toFixed(1)} s from request to answer), peak RSS ${peakRssMiB.toFixed(0)} MiB; matched ${run.matched}, ` +
      `divergences ${JSON.stringify(run.divergences)} ${ok ? '(as seeded)' : '(NOT as seeded)'}`;
    return { source, line, peakRssMiB };
  } finally {
    await api.stop();
  }
}

/** Charges and succeeded attempts `from`..`to`; md5(tag || i)::uuid is the id the simulator side computes with uuidOf. */
async function seedChargeAttempts(db: pg.Pool, from: number, to: number, lines: number): Promise<void> {
  await db.query(
    `WITH merchant AS (
       INSERT INTO merchants (name) VALUES ('bench') ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)
     INSERT INTO charges (id, merchant_id, order_id, amount_cents, currency, customer_id, provider, created_by)
     SELECT md5('c' || i)::uuid, (SELECT id FROM merchant), 'bench-reconcile-' || i, 1000 + i % 9000, 'usd', 'cus_bench', 'stripe', 'bench'
       FROM generate_series($1::int, $2::int) i`,
    [from, to],
  );
  await db.query(
    `INSERT INTO charge_attempts (id, charge_id, idempotency_key, provider, status, provider_charge_id, payload, payload_hash, http_attempts, resolved_at, resolved_by, created_at)
     SELECT md5('a' || i)::uuid, md5('c' || i)::uuid, md5('k' || i)::uuid, 'stripe', 'succeeded', 'pi_bench_' || i, '', repeat('0', 64), 1, now(), 'submit',
            to_timestamp($3::double precision + floor((i - 1) * 86400.0 / $4))
       FROM generate_series($1::int, $2::int) i`,
    [from, to, dayStart, lines],
  );
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


/** Payouts and their succeeded attempts `from`..`to`, from one funded account; ids as the simulator side computes them. */
async function seedPayoutAttempts(db: pg.Pool, from: number, to: number, lines: number): Promise<void> {
  if (from === 1) {
    await db.query(`INSERT INTO merchants (name) VALUES ('bench') ON CONFLICT DO NOTHING`);
    await db.query(`INSERT INTO api_tokens (name, role, token_hash, merchant_id) SELECT 'bench-merchant', 'merchant', repeat('b', 64), id FROM merchants WHERE name = 'bench' ON CONFLICT DO NOTHING`);
    await db.query(
      `INSERT INTO ledger_accounts (id, owner_token_name, merchant_id, currency, created_by)
       SELECT md5('account')::uuid, 'bench-merchant', id, 'brl', 'bench' FROM merchants WHERE name = 'bench' ON CONFLICT DO NOTHING`,
    );
  }
  await db.query(
    `INSERT INTO payouts (id, account_id, amount_cents, currency, provider, pix_key, pix_key_type, created_by)
     SELECT md5('p' || i)::uuid, md5('account')::uuid, 1000 + i % 9000, 'brl', 'efi', 'payee@example.com', 'email', 'bench'
       FROM generate_series($1::int, $2::int) i`,
    [from, to],
  );
  await db.query(
    `INSERT INTO charge_attempts (id, payout_id, operation, idempotency_key, provider, status, provider_charge_id, payload, payload_hash, http_attempts, resolved_at, resolved_by, created_at)
     SELECT md5('a' || i)::uuid, md5('p' || i)::uuid, 'payout', md5('k' || i)::uuid, 'efi', 'succeeded', 'E09089356' || lpad(i::text, 23, '0'), '', repeat('0', 64), 1, now(), 'submit',
            to_timestamp($3::double precision + floor((i - 1) * 86400.0 / $4))
       FROM generate_series($1::int, $2::int) i`,
    [from, to, dayStart, lines],
  );
}

/** A BACEN-shaped end-to-end id, the one seedPayoutAttempts stores for payout i. */
function e2eOf(i: number): string {
  return `E09089356${String(i).padStart(23, '0')}`;
}
