import { mkdirSync } from 'node:fs';
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
  if (await portAnswers(systemPort)) return `postgres://postgres@127.0.0.1:${systemPort}/charge_once`;

  const port = readPort(env, 'EMBEDDED_POSTGRES_PORT', EMBEDDED_DEFAULT_PORT);
  if (await portAnswers(port)) {
    throw new Error(`nothing answers on 127.0.0.1:${systemPort} and EMBEDDED_POSTGRES_PORT ${port} is taken (another npm start?); set DATABASE_URL or EMBEDDED_POSTGRES_PORT`);
  }
  const databaseDir = join(dataDir, 'postgres');
  say(`DATABASE_URL is not set and nothing answers on 127.0.0.1:${systemPort}: starting an embedded PostgreSQL (npm package embedded-postgres)`);
  say(`  port ${port}, data in ${databaseDir} (kept between runs; delete the folder to start empty). Set DATABASE_URL to use your own`);
  mkdirSync(join(databaseDir, '..'), { recursive: true, mode: 0o755 });
  const cluster = await EmbeddedCluster.start(databaseDir, port);
  group.onStop(() => cluster.stop());
  return cluster.url('charge_once');
}
