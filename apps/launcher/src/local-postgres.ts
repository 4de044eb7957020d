import { mkdirSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { EmbeddedCluster } from './embedded-cluster.js';
import { portAnswers, readPort } from './ports.js';
import type { ProcessGroup } from './process-group.js';
import { say } from './terminal.js';

/** The embedded cluster's own port: not 5432, so it never shadows (or is shadowed by) a system PostgreSQL. */
const EMBEDDED_DEFAULT_PORT = 54329;

/**
 * Which PostgreSQL `npm start` uses: DATABASE_URL when set; else the one on 127.0.0.1:PGPORT (5432) when it
 * answers; else a real PostgreSQL started from the `embedded-postgres` package, data kept under
 * <dataDir>/postgres so the next run finds its charges again. Returns the URL to give the app.
 */
export async function providePostgres(env: NodeJS.ProcessEnv, dataDir: string, group: ProcessGroup): Promise<string> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const systemPort = readPort(env, 'PGPORT', 5432);
  if (await portAnswers(systemPort)) {
    const refusal = await passwordlessLoginRefused(systemPort);
    if (!refusal) return `postgres://postgres@127.0.0.1:${systemPort}/charge_once`;
    say(`the PostgreSQL on 127.0.0.1:${systemPort} refuses the passwordless user postgres (${refusal}); set DATABASE_URL to use it`);
  }

  const port = readPort(env, 'EMBEDDED_POSTGRES_PORT', EMBEDDED_DEFAULT_PORT);
  if (await portAnswers(port)) {
    throw new Error(`nothing answers on 127.0.0.1:${systemPort} and EMBEDDED_POSTGRES_PORT ${port} is taken (another npm start?); set DATABASE_URL or EMBEDDED_POSTGRES_PORT`);
  }
  const databaseDir = join(dataDir, 'postgres');
  say(`DATABASE_URL is not set and nothing usable answers on 127.0.0.1:${systemPort}: starting an embedded PostgreSQL (npm package embedded-postgres)`);
  say(`  port ${port}, data in ${databaseDir} (kept between runs; delete the folder to start empty). Set DATABASE_URL to use your own`);
  mkdirSync(join(databaseDir, '..'), { recursive: true, mode: 0o755 });
  const cluster = await EmbeddedCluster.start(databaseDir, port);
  group.onStop(() => cluster.stop());
  return cluster.url('charge_once');
}

/**
 * Why the server on `port` will not let `postgres` in without a password (as a packaged PostgreSQL with
 * `scram-sha-256` in pg_hba.conf does), or null when it does. Only an authentication refusal counts: any other
 * error is left for the migration step to report.
 */
async function passwordlessLoginRefused(port: number): Promise<string | null> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', password: '', connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const refused = code === '28P01' || code === '28000' || /password/i.test(String((error as Error).message));
    return refused ? (error as Error).message : null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
