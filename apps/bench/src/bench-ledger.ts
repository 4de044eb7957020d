import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { dataSourceOptions, migrateDatabase } from '@app/database';
import { LedgerService } from '@app/ledger';
import { intArg, percentile } from './bench-process.js';

/**
 * `npm run bench:ledger -- --n=2000 --concurrency=20 --accounts=50`: N reserve+debit pairs, each in its own
 * transaction like a payout attempt's open and end, C at a time. Run twice in one process: spread over A accounts
 * (the baseline) and all on one hot account, whose row lock serialises every movement. Prints both rates, the
 * ratio and latency percentiles, then checks that every balance still equals the sum of its entries.
 */
const n = intArg('n', 2000);
const concurrency = intArg('concurrency', 20);
const accounts = intArg('accounts', 50);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_bench';

await migrateDatabase(databaseUrl);
const db = await new DataSource({ ...dataSourceOptions(databaseUrl), extra: { max: concurrency } }).initialize();
const ledger = new LedgerService();
const owner = `bench-ledger-${randomUUID().slice(0, 8)}`;
const [{ id: merchantId }] = await db.query<Array<{ id: string }>>(`INSERT INTO merchants (name) VALUES ($1) RETURNING id`, [owner]);
await db.query(`INSERT INTO api_tokens (name, role, token_hash, merchant_id) VALUES ($1, 'merchant', $2, $3)`, [owner, randomUUID().replace(/-/g, '').padEnd(64, '0'), merchantId]);

async function openAccounts(count: number, fundingCents: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) {
    await db.query(`INSERT INTO ledger_accounts (id, owner_token_name, merchant_id, currency, created_by) VALUES ($1, $2, $3, 'brl', 'bench')`, [id, owner, merchantId]);
    await db.transaction((em) => ledger.credit(em, id, fundingCents, `fund-${id}`));
  }
  return ids;
}

async function run(label: string, ids: string[]): Promise<number> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const accountId = ids[i % ids.length];
        const t0 = performance.now();
        await db.transaction((em) => ledger.reserve(em, accountId, 100, `attempt-${i}`));
        await db.transaction((em) => ledger.debit(em, accountId, `attempt-${i}`));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rate = n / seconds;
  console.log(`${label.padEnd(28)} ${rate.toFixed(0).padStart(6)} payouts/s (reserve+debit)  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`);
  return rate;
}

console.log(`bench:ledger  N=${n} concurrency=${concurrency} accounts=${accounts}`);
const spread = await run(`spread over ${accounts} accounts`, await openAccounts(accounts, n * 100));
const hot = await run('one hot account', await openAccounts(1, n * 100));
console.log(`hot / spread ratio: ${(hot / spread).toFixed(2)}  (the row lock serialises one account; spread is the baseline)`);

const [drift] = await db.query<Array<{ n: string }>>(
  `SELECT count(*) AS n FROM ledger_accounts a,
     LATERAL (SELECT coalesce(sum(CASE kind WHEN 'credit' THEN amount_cents WHEN 'reserve' THEN -amount_cents WHEN 'release' THEN amount_cents ELSE 0 END), 0) AS available,
                     coalesce(sum(CASE kind WHEN 'reserve' THEN amount_cents WHEN 'release' THEN -amount_cents WHEN 'debit' THEN -amount_cents ELSE 0 END), 0) AS reserved
                FROM ledger_entries e WHERE e.account_id = a.id) s
    WHERE a.owner_token_name = $1 AND (a.available_cents <> s.available OR a.reserved_cents <> s.reserved)`,
  [owner],
);
console.log(`accounts whose balance differs from the sum of their entries: ${drift.n}`);
await db.destroy();
if (drift.n !== '0') process.exit(1);
