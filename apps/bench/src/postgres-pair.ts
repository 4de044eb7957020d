import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrateDatabase } from '@app/database';
import { freePortNumber } from './free-port.js';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a streaming standby (`pg_basebackup -R`) from the machine's own PostgreSQL binaries, with
 * the service connected through Debian's `pgbouncer` in session mode, as a team past one machine runs them. Each on a
 * free loopback port, in a temporary folder; nothing of the machine's own cluster is touched. PostgreSQL and
 * PgBouncer refuse to run as root, so as root every command runs as the `postgres` user.
 */
export interface PostgresPair {
  /** The service's DATABASE_URL: through the proxy. */
  url: string;
  /** The standby itself (read-only until promoted). */
  standbyUrl: string;
  /** SIGKILLs the primary (postmaster and backends), promotes the standby and points the proxy at it. */
  failover(): Promise<{ promotedInMs: number }>;
  close(): Promise<void>;
}

const DATABASE = 'charge_once';

function binDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  return `/usr/lib/postgresql/${versions[versions.length - 1]}/bin`;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL or PgBouncer command as `postgres` (when we are root). */
async function asPostgres(command: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const { stdout } = await run(file, argv, { timeout: 60_000 });
  return stdout;
}

function pidOf(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** The postmaster and every backend it forked (they outlive a killed postmaster until they notice). */
async function processTree(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-e', '-o', 'pid=,ppid=']);
  const children = new Map<number, number[]>();
  for (const line of stdout.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

function bouncerIni(dir: string, listenPort: number, serverPort: number): string {
  return [
    '[databases]',
    `${DATABASE} = host=127.0.0.1 port=${serverPort} dbname=${DATABASE}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${listenPort}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'admin_users = postgres',
    // Session mode: a client keeps its server connection for its whole session, so the hot path's named prepared
    // statements stay on the connection that prepared them (transaction mode would need max_prepared_statements).
    'pool_mode = session',
    'max_client_conn = 1000',
    'default_pool_size = 200',
    // While no server answers, a client waits this long and then gets an error, never hangs.
    'query_wait_timeout = 5',
    'server_connect_timeout = 2',
    'server_login_retry = 1',
    'ignore_startup_parameters = extra_float_digits,options',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
}

export async function startPostgresPair(): Promise<PostgresPair> {
  const bin = binDir();
  const dir = mkdtempSync('/tmp/co-pg-pair-');
  if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), Number((await run('id', ['-g', 'postgres'])).stdout.trim()));
  const [primaryPort, standbyPort, proxyPort] = [await freePortNumber(), await freePortNumber(), await freePortNumber()];
  const primary = join(dir, 'primary');
  const standby = join(dir, 'standby');
  const conf = (port: number) => [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    'max_connections = 300',
    'shared_buffers = 32MB',
    // Synchronous replication, as README recommends for the money tables: what was acknowledged survives the switch.
    "synchronous_standby_names = '*'",
    'fsync = off',
    'full_page_writes = off',
    '',
  ].join('\n');

  await asPostgres(join(bin, 'initdb'), ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions']);
  appendFileSync(primary + '/postgresql.conf', conf(primaryPort));
  await asPostgres(join(bin, 'pg_ctl'), ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
  await asPostgres(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-d', 'postgres', '-qc', 'SET synchronous_commit = local', '-c', `CREATE DATABASE ${DATABASE}`]);

  await asPostgres(join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standby, '-R', '-X', 'stream', '-c', 'fast']);
  appendFileSync(standby + '/postgresql.auto.conf', `port = ${standbyPort}\n`);
  await asPostgres(join(bin, 'pg_ctl'), ['-D', standby, '-l', join(dir, 'standby.log'), '-w', 'start']);
  // Migrated once the standby streams, so every commit of the migrations already waits for it.
  await migrateDatabase(`postgres://postgres@127.0.0.1:${primaryPort}/${DATABASE}`);

  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), bouncerIni(dir, proxyPort, primaryPort));
  if (asRoot) for (const f of ['users.txt', 'pgbouncer.ini']) chownSync(join(dir, f), Number((await run('id', ['-u', 'postgres'])).stdout.trim()), 0);
  await asPostgres('pgbouncer', ['-d', join(dir, 'pgbouncer.ini')]);
  await waitForPort(proxyPort);

  const admin = (sql: string) => asPostgres(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(proxyPort), '-U', 'postgres', '-d', 'pgbouncer', '-qc', sql]);
  let closed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${proxyPort}/${DATABASE}`,
    standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/${DATABASE}`,
    async failover() {
      const started = Date.now();
      for (const pid of await processTree(pidOf(primary))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await asPostgres(join(bin, 'pg_ctl'), ['-D', standby, '-w', 'promote']);
      // The promoted standby has no standby of its own: it must not wait for one on every commit.
      await asPostgres(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(standbyPort), '-U', 'postgres', '-d', 'postgres', '-qc', "ALTER SYSTEM SET synchronous_standby_names = ''", '-c', 'SELECT pg_reload_conf()']);
      writeFileSync(join(dir, 'pgbouncer.ini'), bouncerIni(dir, proxyPort, standbyPort));
      await admin('RELOAD');
      return { promotedInMs: Date.now() - started };
    },
    async close() {
      if (closed) return;
      closed = true;
      await admin('SHUTDOWN').catch(() => undefined);
      for (const data of [standby, primary]) {
        await asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}
