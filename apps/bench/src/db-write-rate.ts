import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { databaseBackendsCpuSeconds } from './database-cpu.js';

/**
 * The database's own rate for the writes one charge needs, with no application in between: the ceiling the
 * api's create + submit is measured against. Same tables (copied with their indexes, checks and foreign keys
 * into a scratch schema), same three commits per charge, each commit one round trip:
 *   1. the charge row;
 *   2. the attempt, inserted already claimed, with its creation audit row;
 *   3. the result: the attempt's guarded update, its evidence (provider_calls) and its transition row.
 */
const SCHEMA = 'bench_scratch';

export async function prepareScratchSchema(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA};
      CREATE TABLE ${SCHEMA}.charges (LIKE public.charges INCLUDING ALL);
      CREATE TABLE ${SCHEMA}.attempts (LIKE public.attempts INCLUDING ALL,
        FOREIGN KEY (charge_id) REFERENCES ${SCHEMA}.charges(id));
      CREATE TABLE ${SCHEMA}.attempt_transitions (LIKE public.attempt_transitions INCLUDING ALL,
        FOREIGN KEY (attempt_id) REFERENCES ${SCHEMA}.attempts(id));
      CREATE TABLE ${SCHEMA}.provider_calls (LIKE public.provider_calls INCLUDING ALL,
        FOREIGN KEY (attempt_id) REFERENCES ${SCHEMA}.attempts(id));`);
  } finally {
    await client.end();
  }
}

export async function dropScratchSchema(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).finally(() => client.end());
}

export interface DbWriteRate {
  /** Charges per second. */
  rate: number;
  /** CPU per charge of this process: `pg` sending the three statements and reading their answers, in ms. */
  clientCpuMs: number;
  /** CPU per charge of the PostgreSQL backends serving them, in ms. */
  serverCpuMs: number;
}

/** `n` charges written by `connections` clients, each on its own connection: their rate and CPU per charge. */
export async function measureDbWriteRate(databaseUrl: string, n: number, connections: number): Promise<DbWriteRate> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  let next = 0;
  const run = randomUUID().slice(0, 8);
  // One merchant per run, as the api's bench token is; LIKE copies no foreign key, so no merchants row is needed.
  const merchantId = randomUUID();
  const worker = async (client: pg.Client) => {
    while (next < n) {
      const i = next++;
      const chargeId = randomUUID();
      const attemptId = randomUUID();
      await client.query({
        name: 'bench_charge',
        text: `INSERT INTO ${SCHEMA}.charges (id, order_id, amount_cents, currency, customer_id, payment_method_id, provider, created_by, merchant_id)
               VALUES ($1, $2, $3, 'usd', $4, 'pm_card_visa', 'stripe', 'bench', $5)`,
        values: [chargeId, `db-${run}-${i}`, 1000 + (i % 500), `cus_bench_${i % 97}`, merchantId],
      });
      await client.query({
        name: 'bench_attempt',
        text: `WITH a AS (
                 INSERT INTO ${SCHEMA}.attempts (id, charge_id, idempotency_key, provider, status, payload, payload_hash, http_attempts, last_sent_at, lease_expires_at)
                 VALUES ($1, $2, $3, 'stripe', 'pending', $4, $5, 1, now(), now() + interval '60 seconds') RETURNING id)
               INSERT INTO ${SCHEMA}.attempt_transitions (attempt_id, from_status, to_status, cause, actor) SELECT id, NULL, 'pending', 'submit', 'bench' FROM a`,
        values: [attemptId, chargeId, randomUUID(), `amount=${1000 + (i % 500)}&currency=usd&metadata[attempt_id]=${attemptId}`, '0'.repeat(64)],
      });
      await client.query({
        name: 'bench_result',
        text: `WITH a AS (
                 UPDATE ${SCHEMA}.attempts SET status = 'succeeded', provider_ref = $2, lease_expires_at = NULL,
                        last_send_ended_at = clock_timestamp(), resolved_at = now(), resolved_by = 'submit', updated_at = now()
                  WHERE id = $1 AND status = 'pending' AND http_attempts = 1 RETURNING id),
               t AS (INSERT INTO ${SCHEMA}.attempt_transitions (attempt_id, from_status, to_status, cause, actor, detail)
                     SELECT id, 'pending', 'succeeded', 'submit', 'bench', '{"reason":"created"}' FROM a)
               INSERT INTO ${SCHEMA}.provider_calls (attempt_id, kind, outcome, http_status, duration_ms, detail)
               SELECT id, 'create', 'created', 200, 1, '{"httpAttempt":1}' FROM a`,
        values: [attemptId, `pi_${attemptId.replaceAll('-', '')}`],
      });
    }
  };
  const started = performance.now();
  const [clientCpu, serverCpu] = [process.cpuUsage(), databaseBackendsCpuSeconds(database)];
  try {
    await Promise.all(clients.map(worker));
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientCpu);
    return { rate: n / seconds, clientCpuMs: (client.user + client.system) / 1000 / n, serverCpuMs: (1000 * (databaseBackendsCpuSeconds(database) - serverCpu)) / n };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
