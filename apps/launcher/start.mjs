#!/usr/bin/env node
// `npm start`: the one command for a fresh checkout. Builds when dist/ is stale, applies migrations, starts the
// Stripe simulator when no real key is configured, then the api and the worker; stops them all together.
// Plain Node, no dependencies, so it runs before anything is built.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';
// The lint config declares no Node globals for .mjs files; these two are Node 20 built-ins.
/* global fetch, AbortSignal */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const ENTRY = {
  api: 'dist/apps/api/src/main.js',
  worker: 'dist/apps/worker/src/main.js',
  simulator: 'dist/apps/simulator/src/main.js',
  migrate: 'dist/libs/database/src/cli/migrate.js',
};
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const COLORS = { start: 1, build: 90, migrate: 35, simulator: 33, api: 36, worker: 32 };
const tag = (name) => (color ? `\x1b[${COLORS[name] ?? 0}m[${name}]\x1b[0m` : `[${name}]`);
const say = (message) => process.stdout.write(`${tag('start')} ${message}\n`);
const warn = (message) => process.stderr.write(`${tag('start')} ${message}\n`);

/** name -> { child, exited: Promise<{ code, signal }> } */
const running = new Map();
let stopping = false;

// ---------------------------------------------------------------------------------------------- children

function launch(name, args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  prefixLines(child.stdout, process.stdout, name);
  prefixLines(child.stderr, process.stderr, name);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: 127, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const entry = { child, exited };
  running.set(name, entry);
  void exited.then(() => running.delete(name));
  return entry;
}

function prefixLines(stream, out, name) {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${tag(name)} ${line}\n`));
}

/** Runs a one-shot step to completion; throws when it fails. */
async function step(name, args, env) {
  const { code, signal, error } = await launch(name, args, env).exited;
  if (code !== 0) throw new Error(`${name} failed (${error?.message ?? (signal ? `signal ${signal}` : `exit code ${code}`)})`);
}

/** Starts a long-running child; if it ever exits while we are not stopping, everything stops. */
function service(name, args, env) {
  const { exited } = launch(name, args, env);
  void exited.then(({ code, signal, error }) => {
    if (stopping) return;
    const how = error?.message ?? (signal ? `signal ${signal}` : `exit code ${code}`);
    warn(`${name} exited unexpectedly (${how}); stopping the others`);
    void shutdown('SIGTERM', 1);
  });
}

const cleanExit = ({ code, signal }) => code === 0 || SIGNALS.includes(signal) || code === 130 || code === 143;

async function stopGroup(names, signal) {
  const entries = names.map((name) => [name, running.get(name)]).filter(([, entry]) => entry);
  for (const [, { child }] of entries) child.kill(signal);
  const results = await Promise.all(
    entries.map(async ([name, { child, exited }]) => {
      const timer = setTimeout(() => {
        warn(`${name} still running ${STOP_TIMEOUT_MS / 1000}s after ${signal}; killing it`);
        child.kill('SIGKILL');
      }, STOP_TIMEOUT_MS);
      const result = await exited;
      clearTimeout(timer);
      return result.signal !== 'SIGKILL' && cleanExit(result);
    }),
  );
  return results.every(Boolean);
}

/**
 * Stops the api and worker first, then whatever they may still be calling (the simulator), then exits.
 * (A terminal's Ctrl-C reaches every child at once anyway; the order matters for `kill` and SIGTERM from a supervisor.)
 */
async function shutdown(signal, exitCode) {
  if (stopping) return;
  stopping = true;
  const first = [...running.keys()].filter((name) => name !== 'simulator');
  const cleanFirst = await stopGroup(first, signal);
  const cleanRest = await stopGroup([...running.keys()], signal);
  process.exit(exitCode ?? (cleanFirst && cleanRest ? 0 : 1));
}

let lastSignalAt = 0;
for (const signal of SIGNALS) {
  process.on(signal, () => {
    const now = Date.now();
    // Ctrl-C reaches us twice under `npm start` (from the terminal and forwarded by npm): one press, one stop.
    if (stopping && now - lastSignalAt > 1000) {
      warn('stopping now (killing what is left)');
      for (const { child } of running.values()) child.kill('SIGKILL');
    } else if (!stopping) {
      say(`${signal} received; stopping`);
      void shutdown(signal);
    }
    lastSignalAt = now;
  });
}

// ---------------------------------------------------------------------------------------------- build

function newestSourceMtime() {
  let newest = 0;
  const visit = (dir) => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        if (item.name !== 'node_modules') visit(path);
      } else if ((item.name.endsWith('.ts') && !item.name.endsWith('.spec.ts')) || dir.endsWith('console')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const dir of ['apps', 'libs', 'migrations']) if (existsSync(join(ROOT, dir))) visit(join(ROOT, dir));
  for (const file of ['tsconfig.json', 'tsconfig.build.json']) {
    if (existsSync(join(ROOT, file))) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  }
  return newest;
}

function buildReason() {
  if (!existsSync(DIST)) return 'dist/ is missing';
  if (!existsSync(STAMP)) return 'no record of a previous build';
  const missing = [ENTRY.api, ENTRY.worker, ENTRY.migrate].find((file) => !existsSync(join(ROOT, file)));
  if (missing) return `${missing} is missing`;
  if (newestSourceMtime() > statSync(STAMP).mtimeMs) return 'sources changed since the last build';
  return null;
}

async function buildIfStale() {
  const reason = buildReason();
  if (!reason) {
    say('build is up to date');
    return;
  }
  say(`building (${reason})`);
  // Stamped with the time the build started, so a file saved during the build still triggers the next one.
  const startedAt = new Date();
  await step('build', [npmCli(), 'run', 'build', '--silent'], process.env);
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
}

/** npm's own CLI script, run with this Node, so no shell and no PATH lookup is involved. */
function npmCli() {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv && /npm-cli\.js$/.test(fromEnv)) return fromEnv;
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('cannot find npm; run `npm run build` once, then `npm start` again');
  return found;
}

// ---------------------------------------------------------------------------------------------- helpers

/** Shows where a URL points without its password. */
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function readPort(name, fallback) {
  const raw = process.env[name] ?? String(fallback);
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return port;
}

function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

async function assertPortFree(port, name) {
  if (await portAnswers(port)) throw new Error(`port ${port} is already in use (another npm start?); set ${name} to another port`);
}

async function waitForPort(port, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return;
    if (await portAnswers(port)) return;
    await sleep(200);
  }
  throw new Error(`${what} did not open port ${port} within ${timeoutMs / 1000}s`);
}

async function waitForHealth(url) {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 400)}`;
    } catch (error) {
      last = error?.cause?.code ?? error?.message ?? String(error);
    }
    await sleep(500);
  }
  throw new Error(`${url} did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000}s (last: ${last}); are PostgreSQL and Redis up?`);
}

function devTokens() {
  const make = (role) => `dev_${role}_${randomBytes(24).toString('base64url')}`;
  return { merchant: make('merchant'), reviewer: make('reviewer'), admin: make('admin') };
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  const port = readPort('PORT', 3000);
  const env = { ...process.env, PORT: String(port) };
  const simulated = !env.STRIPE_SECRET_KEY;
  const simPort = readPort('SIMULATOR_PORT', 12111);
  const controlPort = readPort('SIMULATOR_CONTROL_PORT', 12112);
  // Checked first: otherwise /health could be answered by whatever already holds the port.
  await assertPortFree(port, 'PORT');
  if (simulated) {
    await assertPortFree(simPort, 'SIMULATOR_PORT');
    await assertPortFree(controlPort, 'SIMULATOR_CONTROL_PORT');
  }
  say(`database ${redact(env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once')}, redis ${redact(env.REDIS_URL ?? 'redis://127.0.0.1:6379')}`);

  await buildIfStale();
  if (stopping) return;

  say('applying migrations');
  try {
    await step('migrate', [ENTRY.migrate, 'run'], env);
  } catch (error) {
    if (!stopping) warn('is PostgreSQL running? set DATABASE_URL if it is not postgres@127.0.0.1:5432 with trust auth');
    throw error;
  }
  if (stopping) return;

  if (simulated) {
    if (!existsSync(join(ROOT, ENTRY.simulator))) {
      throw new Error(`no STRIPE_SECRET_KEY and the simulator is not built (${ENTRY.simulator}); set STRIPE_SECRET_KEY to use Stripe`);
    }
    Object.assign(env, {
      SIMULATOR_PORT: String(simPort),
      SIMULATOR_CONTROL_PORT: String(controlPort),
      SIMULATOR_WEBHOOK_URL: env.SIMULATOR_WEBHOOK_URL ?? `http://127.0.0.1:${port}/webhooks/stripe`,
      STRIPE_API_BASE: `http://127.0.0.1:${simPort}`,
      STRIPE_SECRET_KEY: 'sk_test_simulator',
    });
    say(`STRIPE_SECRET_KEY is not set: using the local Stripe SIMULATOR, not Stripe. No real money moves.`);
    say(`  simulated Stripe API http://127.0.0.1:${simPort}, control API http://127.0.0.1:${controlPort}/_sim, webhooks to ${env.SIMULATOR_WEBHOOK_URL}`);
    say('  set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET) to talk to Stripe instead');
    if (!env.ASAAS_API_KEY) {
      // The same simulator answers Asaas under /v3; its webhooks carry the simulator's token.
      Object.assign(env, {
        ASAAS_API_BASE: `http://127.0.0.1:${simPort}`,
        ASAAS_API_KEY: '$aact_simulator',
        ASAAS_WEBHOOK_TOKEN: env.ASAAS_WEBHOOK_TOKEN ?? 'asaas-dev-simulator-token',
        SIMULATOR_ASAAS_WEBHOOK_URL: env.SIMULATOR_ASAAS_WEBHOOK_URL ?? `http://127.0.0.1:${port}/webhooks/asaas`,
      });
      say(`ASAAS_API_KEY is not set: provider "asaas" uses the same SIMULATOR (http://127.0.0.1:${simPort}/v3), webhooks to ${env.SIMULATOR_ASAAS_WEBHOOK_URL}`);
    }
    service('simulator', [ENTRY.simulator], env);
    await waitForPort(simPort, 'the simulator', 20_000);
    if (stopping) return;
  } else {
    say(`STRIPE_SECRET_KEY is set: using the Stripe API at ${env.STRIPE_API_BASE ?? 'https://api.stripe.com'}`);
  }

  const tokens = env.API_TOKENS ? null : devTokens();
  if (tokens) env.API_TOKENS = Object.entries(tokens).map(([role, token]) => `${role}:${token}`).join(',');

  service('api', [ENTRY.api], env);
  service('worker', [ENTRY.worker], env);
  await waitForHealth(`http://127.0.0.1:${port}/health`);
  if (stopping) return;

  const bearer = tokens ? tokens.merchant : '$MERCHANT_TOKEN';
  const body = '{"orderId":"o-1","amountCents":4990,"currency":"usd","customerId":"cus_demo","paymentMethodId":"pm_card_visa"}';
  const lines = [
    '',
    `ready: api http://127.0.0.1:${port} (GET /docs for the OpenAPI page), worker running${simulated ? ', simulator running' : ''}`,
    tokens
      ? 'API_TOKENS was not set, so these dev tokens were generated for this run (shown once; set API_TOKENS to choose your own):'
      : 'using the tokens from API_TOKENS (not shown); below, $MERCHANT_TOKEN stands for a merchant token',
    ...(tokens ? Object.entries(tokens).map(([role, token]) => `  ${role.padEnd(9)} ${token}`) : []),
    'try:',
    `  curl -H "Authorization: Bearer ${bearer}" -X POST localhost:${port}/charges -H 'content-type: application/json' -d '${body}'`,
    `  curl -H "Authorization: Bearer ${bearer}" -X POST localhost:${port}/charges/<id from the answer>/submit`,
    `  curl -H "Authorization: Bearer ${bearer}" localhost:${port}/charges/<id>`,
    'Ctrl-C stops everything.',
    '',
  ];
  for (const line of lines) say(line);
}

main().catch((error) => {
  if (stopping) return;
  warn(`error: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown('SIGTERM', 1);
});
