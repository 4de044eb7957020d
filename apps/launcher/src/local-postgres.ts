import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
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
  const cluster = await startEmbedded(databaseDir, port);
  group.onStop(() => cluster.stop());
  return `postgres://postgres:postgres@127.0.0.1:${port}/charge_once`;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * The package installs signal handlers (async-exit-hook) that stop every cluster and exit at the first
 * Ctrl-C or SIGTERM, before the api and worker have stopped using it. The process group owns shutdown
 * order (callers first, the database last, through its stop hook), so those handlers are taken off again.
 */
async function importKeepingOurSignals(): Promise<typeof import('embedded-postgres').default> {
  const ours = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  let module: typeof import('embedded-postgres');
  try {
    module = await import('embedded-postgres');
  } catch {
    throw new Error('the embedded-postgres package is not installed (run `npm ci`), or set DATABASE_URL to a PostgreSQL you run');
  }
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) if (!ours.get(signal)!.includes(listener)) process.removeListener(signal, listener);
  }
  return module.default;
}

interface EmbeddedCluster {
  stop(): Promise<void>;
}

async function startEmbedded(databaseDir: string, port: number): Promise<EmbeddedCluster> {
  const EmbeddedPostgres = await importKeepingOurSignals();
  mkdirSync(join(databaseDir, '..'), { recursive: true, mode: 0o755 });
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user it creates.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message) => process.stderr.write(`[postgres] ${String(message)}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  return cluster;
}
