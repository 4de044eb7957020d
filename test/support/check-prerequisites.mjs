#!/usr/bin/env node
// First step of `npm test`: everything the suite talks to must answer before minutes of lint, build and tests are
// spent. Prints one line per missing piece with the command that installs it, and exits 1; silent when all is there.
// Plain Node (no TypeScript, no build), and `pg` only if it is installed: it must work on a machine with nothing.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import process from 'node:process';
import { URL } from 'node:url';

const TIMEOUT_MS = 3000;
const databaseUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_test');
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Resolves with the first bytes the server sends after `hello`, or rejects (refused, timed out). */
function exchange(host, port, hello) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: TIMEOUT_MS });
    socket.once('connect', () => socket.write(hello));
    socket.once('data', (data) => (socket.destroy(), resolve(data.toString())));
    socket.once('timeout', () => (socket.destroy(), reject(new Error('timed out'))));
    socket.once('error', reject);
  });
}

async function postgresProblem() {
  const where = `${databaseUrl.hostname}:${databaseUrl.port || 5432}`;
  const install = 'sudo apt-get install -y postgresql && sudo pg_ctlcluster <version> main start (trust auth for postgres on 127.0.0.1), or set TEST_DATABASE_URL';
  let pg;
  try {
    pg = (await import('pg')).default;
  } catch {
    return 'node_modules is missing: run `npm ci` first';
  }
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    const { rows } = await client.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    if (!rows[0]?.rolsuper) return `PostgreSQL at ${where}: user "${admin.username}" must be a superuser (the tests create and drop databases); set TEST_DATABASE_URL to one that is`;
    return null;
  } catch (error) {
    return `PostgreSQL at ${where} refused the tests (${error.code ?? error.message}): ${install}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisProblem() {
  const where = `${redisUrl.hostname}:${redisUrl.port || 6379}`;
  try {
    const reply = await exchange(redisUrl.hostname, Number(redisUrl.port || 6379), 'PING\r\n');
    return reply.startsWith('+PONG') || reply.startsWith('-NOAUTH') ? null : `Redis at ${where} answered "${reply.trim()}" to PING`;
  } catch (error) {
    return `Redis at ${where} does not answer (${error.code ?? error.message}): sudo apt-get install -y redis-server && redis-server --daemonize yes, or set REDIS_URL`;
  }
}

function commandProblem(command, args, why, install) {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: TIMEOUT_MS });
    return null;
  } catch {
    return `${command} is not on PATH (${why}): ${install}`;
  }
}

function chromiumProblem() {
  try {
    accessSync(chromium, constants.X_OK);
    return null;
  } catch {
    return `Chromium is not at ${chromium} (the review console's browser tests drive it): sudo apt-get install -y chromium, or set CHROMIUM_PATH`;
  }
}

const problems = (
  await Promise.all([
    postgresProblem(),
    redisProblem(),
    chromiumProblem(),
    commandProblem('redis-server', ['--version'], 'the first-run test starts its own, the Cluster and Sentinel tests theirs', 'sudo apt-get install -y redis-server'),
    commandProblem('redis-cli', ['--version'], 'the Cluster test creates its cluster with `redis-cli --cluster create`', 'sudo apt-get install -y redis-tools'),
    commandProblem('pgbouncer', ['--version'], 'the database failover test puts its primary and standby behind it', 'sudo apt-get install -y pgbouncer'),
    commandProblem('openssl', ['version'], 'the Efí mTLS tests make certificates with it', 'sudo apt-get install -y openssl'),
  ])
).filter(Boolean);

if (problems.length > 0) {
  process.stderr.write(`npm test cannot run on this machine yet:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
