import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortNumber } from '../apps/bench/src/free-port.js';
import { waitFor } from './support/wait-for.js';

const LAUNCHER = 'dist/apps/launcher/src/main.js';

/**
 * `npm start` on a machine whose PostgreSQL will not have it: the launcher (the built one start.mjs hands over
 * to) is pointed at a PostgreSQL port that answers but refuses the passwordless `postgres` user (as a packaged
 * PostgreSQL with scram-sha-256 does), with no DATABASE_URL, so it must say why, start the embedded PostgreSQL,
 * migrate it and run the whole app on it.
 */
describe('npm start with a PostgreSQL that refuses the passwordless user, and no Redis answering', () => {
  let launcher: ChildProcess;
  let output = '';
  let dataDir: string;
  let embeddedPort: number;
  let apiPort: number;
  let redisPort: number;
  let tokens: { merchant: string; reviewer: string; admin: string };
  let refusingPostgres: Server;

  beforeAll(async () => {
    if (!existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run \`npm run build\` (npm test does) first`);
    dataDir = mkdtempSync(join(tmpdir(), 'charge-once-launcher-'));
    // As root the cluster runs as the `postgres` user, who must be able to reach its data folder.
    chmodSync(dataDir, 0o755);
    refusingPostgres = await passwordRefusingPostgres();
    const [pgPort, port, workerPort, simPort, controlPort, efiPort, closedRedisPort] = await Promise.all(
      [2, 3, 4, 5, 6, 7, 8].map(() => freePortNumber()),
    );
    redisPort = closedRedisPort;
    embeddedPort = pgPort;
    apiPort = port;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PGPORT: String((refusingPostgres.address() as AddressInfo).port),
      EMBEDDED_POSTGRES_PORT: String(pgPort),
      CHARGE_ONCE_DATA_DIR: dataDir,
      PORT: String(port),
      WORKER_HTTP_PORT: String(workerPort),
      METRICS_PORT: '0',
      SIMULATOR_PORT: String(simPort),
      SIMULATOR_CONTROL_PORT: String(controlPort),
      SIMULATOR_EFI_PORT: String(efiPort),
      QUEUE_PREFIX: `launcher-${randomUUID().slice(0, 8)}`,
      REDIS_URL: `redis://127.0.0.1:${closedRedisPort}`,
      LOG_LEVEL: 'warn',
    };
    // A first run: no database, no provider keys, no tokens of the user's own.
    for (const name of ['DATABASE_URL', 'API_TOKENS', 'STRIPE_SECRET_KEY', 'ASAAS_API_KEY', 'EFI_CLIENT_SECRET', 'EFI_CLIENT_ID', 'EFI_API_BASE']) delete env[name];
    launcher = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(async () => output, (text) => text.includes('Ctrl-C stops everything') || launcher.exitCode !== null, 90_000, 'the launcher to be ready');
    tokens = JSON.parse(readFileSync(join(dataDir, 'dev-tokens.json'), 'utf8')) as typeof tokens;
  }, 120_000);
  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGKILL');
      await new Promise((resolve) => launcher.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
    refusingPostgres?.close();
  });

  it('says why it does not use the PostgreSQL that answered', () => {
    expect(output).toMatch(/the PostgreSQL on 127\.0\.0\.1:\d+ refuses the passwordless user postgres \(password authentication failed for user "postgres"\); set DATABASE_URL to use it/);
  });

  it('says it started the embedded PostgreSQL, on its own port, with data under the data folder', () => {
    expect(output, output).toContain('ready: api');
    expect(output).toContain('starting an embedded PostgreSQL');
    expect(output).toContain(`port ${embeddedPort}, data in ${join(dataDir, 'postgres')}`);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  });

  it('started redis-server from PATH on the port REDIS_URL names, with its data under the data folder', () => {
    expect(output).toMatch(new RegExp(`nothing answers on redis://127.0.0.1:${redisPort}: starting \\S*redis-server on port ${redisPort}, data in ${join(dataDir, 'redis')}`));
  });

  it('names each dev token and its holder in the ready banner, and prints the money-out path', () => {
    expect(output).toMatch(/merchant\s+dev_merchant_\S+ {2}\(merchant demo-merchant, token name merchant-demo-merchant-[0-9a-f]{8}\)/);
    expect(output).toMatch(/admin\s+dev_admin_\S+ {2}\(person demo-admin, token name admin-demo-admin-[0-9a-f]{8}\)/);
    expect(output).toContain('EFI_CLIENT_SECRET is not set: Pix payouts ("efi") use the SIMULATOR too');
    expect(output).toContain('/accounts/<account id>/payouts');
  });

  it('pays a Pix payout out of the box through the simulated Efí, and the balance shows the debit', async () => {
    const ownerTokenName = /token name (merchant-demo-merchant-[0-9a-f]{8})/.exec(output)![1];
    const as = (token: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra });
    const opened = await fetch(`http://127.0.0.1:${apiPort}/accounts`, { method: 'POST', headers: as(tokens.admin), body: JSON.stringify({ ownerTokenName, currency: 'brl' }) });
    expect(opened.status, await opened.clone().text()).toBe(201);
    const account = (await opened.json()) as { id: string };
    const funded = await fetch(`http://127.0.0.1:${apiPort}/accounts/${account.id}/credits`, {
      method: 'POST',
      headers: as(tokens.admin, { 'Idempotency-Key': 'fund-1' }),
      body: JSON.stringify({ amountCents: 50_000, reference: 'wire-1' }),
    });
    expect(funded.status).toBe(201);
    const sent = await fetch(`http://127.0.0.1:${apiPort}/accounts/${account.id}/payouts`, {
      method: 'POST',
      headers: as(tokens.merchant),
      body: JSON.stringify({ amountCents: 2_500, pixKey: 'payee@example.com.br', pixKeyType: 'email' }),
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const payout = (await sent.json()) as { id: string };
    // The simulated Efí settles the transfer and posts its webhook; the payout becomes certain without anyone asking.
    const settled = await waitFor(
      async () => (await (await fetch(`http://127.0.0.1:${apiPort}/payouts/${payout.id}`, { headers: as(tokens.merchant) })).json()) as { status: string },
      (view) => view.status === 'succeeded',
      20_000,
      'the payout to succeed',
    );
    expect(settled.status).toBe('succeeded');
    const balance = (await (await fetch(`http://127.0.0.1:${apiPort}/accounts/${account.id}/balance`, { headers: as(tokens.merchant) })).json()) as Record<string, number>;
    expect(balance).toMatchObject({ availableCents: 47_500, reservedCents: 0 });
  }, 30_000);

  it('serves a charge end to end on it, and stops it with everything else', async () => {
    const headers = { Authorization: `Bearer ${tokens.merchant}`, 'content-type': 'application/json' };
    const body = { orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'usd', customerId: 'cus_first_run', paymentMethodId: 'pm_card_visa' };
    const created = await fetch(`http://127.0.0.1:${apiPort}/charges`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const submitted = await fetch(`http://127.0.0.1:${apiPort}/charges/${id}/submit`, { method: 'POST', headers });
    expect(submitted.status).toBe(200);
    expect(((await submitted.json()) as { status: string }).status).toBe('succeeded');

    // The charge is in the embedded cluster, not in any other database.
    const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${embeddedPort}/charge_once` });
    await client.connect();
    const { rows } = await client.query<{ status: string }>(`SELECT a.status FROM attempts a WHERE a.charge_id = $1`, [id]);
    await client.end();
    expect(rows).toEqual([{ status: 'succeeded' }]);

    launcher.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => launcher.once('exit', (c) => resolve(c)));
    expect(code, output).toBe(0);
    const probe = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${embeddedPort}/charge_once`, connectionTimeoutMillis: 2000 });
    await expect(probe.connect()).rejects.toThrow();
    expect(await portAnswers(redisPort)).toBe(false);
  }, 60_000);
});

describe('npm start with no Redis answering and no redis-server installed', () => {
  it('stops at once with one message naming the two ways out', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'charge-once-no-redis-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // An empty PATH folder: no redis-server to be found (the launcher runs node by its absolute path).
      PATH: emptyDir,
      REDIS_URL: `redis://127.0.0.1:${await freePortNumber()}`,
      PORT: String(await freePortNumber()),
      WORKER_HTTP_PORT: String(await freePortNumber()),
      METRICS_PORT: '0',
      SIMULATOR_PORT: String(await freePortNumber()),
      SIMULATOR_CONTROL_PORT: String(await freePortNumber()),
    };
    const child = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(text).toContain('there is no redis-server to start');
    expect(text).toContain('apt-get install redis-server');
    expect(text).toContain('docker compose up');
    rmSync(emptyDir, { recursive: true, force: true });
  });
});

describe('npm start as root from a private folder (mode 700, as mktemp -d makes)', () => {
  it('stops with one line naming the folder the postgres user cannot enter, never an unhandled error', async () => {
    const privateDir = mkdtempSync(join(tmpdir(), 'charge-once-private-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PGPORT: String(await freePortNumber()),
      EMBEDDED_POSTGRES_PORT: String(await freePortNumber()),
      CHARGE_ONCE_DATA_DIR: join(privateDir, '.data'),
      PORT: String(await freePortNumber()),
      WORKER_HTTP_PORT: String(await freePortNumber()),
      METRICS_PORT: '0',
      SIMULATOR_PORT: String(await freePortNumber()),
      SIMULATOR_CONTROL_PORT: String(await freePortNumber()),
      SIMULATOR_EFI_PORT: String(await freePortNumber()),
    };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    try {
      if (process.getuid?.() === 0) {
        const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
        expect(code, text).toBe(1);
        expect(text).toContain(`the "postgres" user, who cannot enter ${privateDir} (mode 700): run \`chmod o+x ${privateDir}\`, or set DATABASE_URL`);
        expect(text).not.toMatch(/EACCES|Unhandled|at .*\.js:\d+/);
      } else {
        // Not root: the cluster runs as this user, who owns the folder, so it starts.
        await waitFor(async () => text, (t) => t.includes('starting an embedded PostgreSQL') || child.exitCode !== null, 30_000, 'the embedded PostgreSQL to start');
        expect(text).toContain('starting an embedded PostgreSQL');
      }
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(privateDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Answers every PostgreSQL startup message as a server whose pg_hba.conf wants a password would: 28P01. */
async function passwordRefusingPostgres(): Promise<Server> {
  const server = createServer((socket) => {
    socket.once('data', () => {
      const fields = Buffer.concat(
        ['SFATAL', 'C28P01', 'Mpassword authentication failed for user "postgres"'].map((f) => Buffer.from(`${f}\0`)).concat(Buffer.from('\0')),
      );
      const length = Buffer.alloc(4);
      length.writeUInt32BE(fields.length + 4);
      socket.end(Buffer.concat([Buffer.from('E'), length, fields]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
