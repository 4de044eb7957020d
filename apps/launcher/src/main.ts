import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { providePostgres } from './local-postgres.js';
import { provideRedis } from './local-redis.js';
import { assertPortFree, readPort, waitForHealth, waitForPort } from './ports.js';
import { ProcessGroup } from './process-group.js';
import { apiTokensSetting, devTokens, printReady } from './ready-banner.js';
import { eventsEncryptionKey } from './events-key.js';
import { useSimulator } from './simulator-settings.js';
import { redact, say, warn } from './terminal.js';

/** The checkout's root, from dist/apps/launcher/src/ where this runs. */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ENTRY = {
  api: 'dist/apps/api/src/main.js',
  worker: 'dist/apps/worker/src/main.js',
  simulator: 'dist/apps/simulator/src/main.js',
  migrate: 'dist/libs/database/src/cli/migrate.js',
};
const HEALTH_TIMEOUT_MS = 60_000;

/**
 * `npm start` after the build (apps/launcher/start.mjs builds first): PostgreSQL and Redis (found, or started
 * locally), migrations, the simulator unless a real Stripe key is set, then the api and the worker.
 */
async function main(group: ProcessGroup): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const port = readPort(env, 'PORT', 3000);
  const workerPort = readPort(env, 'WORKER_HTTP_PORT', 3001);
  // The api's own metrics port; 0 lets it pick a free one (nothing to check beforehand).
  const metricsPort = env.METRICS_PORT === '0' ? 0 : readPort(env, 'METRICS_PORT', 9464);
  const simulated = !env.STRIPE_SECRET_KEY;
  const simPorts = {
    api: readPort(env, 'SIMULATOR_PORT', 12111),
    control: readPort(env, 'SIMULATOR_CONTROL_PORT', 12112),
    efi: readPort(env, 'SIMULATOR_EFI_PORT', 12113),
    app: port,
  };
  // Checked first: otherwise /health could be answered by whatever already holds the port.
  await assertPortFree(port, 'PORT');
  await assertPortFree(workerPort, 'WORKER_HTTP_PORT');
  if (metricsPort !== 0) await assertPortFree(metricsPort, 'METRICS_PORT');
  if (simulated) {
    await assertPortFree(simPorts.api, 'SIMULATOR_PORT');
    await assertPortFree(simPorts.control, 'SIMULATOR_CONTROL_PORT');
    if (!env.EFI_CLIENT_SECRET) await assertPortFree(simPorts.efi, 'SIMULATOR_EFI_PORT');
  }
  // People read the terminal; machines read JSON (LOG_FORMAT=json keeps it under a terminal too).
  if (!env.LOG_FORMAT && process.stdout.isTTY) env.LOG_FORMAT = 'pretty';
  Object.assign(env, { PORT: String(port), WORKER_HTTP_PORT: String(workerPort), METRICS_PORT: String(metricsPort) });

  const dataDir = env.CHARGE_ONCE_DATA_DIR ?? join(ROOT, '.data');
  env.DATABASE_URL = await providePostgres(env, dataDir, group);
  // A Sentinel set or a Cluster is the operator's to run: nothing to start, and REDIS_URL beside it would be refused.
  const redisElsewhere = env.REDIS_SENTINELS ? `sentinels ${env.REDIS_SENTINELS}` : env.REDIS_CLUSTER_NODES ? `cluster ${env.REDIS_CLUSTER_NODES}` : null;
  if (!redisElsewhere) env.REDIS_URL = await provideRedis(env, dataDir, group);
  say(`database ${redact(env.DATABASE_URL)}, redis ${redisElsewhere ?? redact(env.REDIS_URL ?? '')}`);
  if (group.isStopping) return;

  say('applying migrations');
  await group.step('migrate', process.execPath, [ENTRY.migrate, 'run'], env).catch((error: unknown) => {
    if (!group.isStopping) warn('is PostgreSQL running? set DATABASE_URL if it is not postgres@127.0.0.1:5432 with trust auth');
    throw error;
  });
  if (group.isStopping) return;

  if (simulated) {
    if (!existsSync(join(ROOT, ENTRY.simulator))) throw new Error(`no STRIPE_SECRET_KEY and the simulator is not built (${ENTRY.simulator}); set STRIPE_SECRET_KEY to use Stripe`);
    useSimulator(env, simPorts);
    group.service('simulator', process.execPath, [ENTRY.simulator], env);
    await waitForPort(simPorts.api, 'the simulator', 20_000, () => group.isStopping);
    if (group.isStopping) return;
  } else {
    say(`STRIPE_SECRET_KEY is set: using the Stripe API at ${env.STRIPE_API_BASE ?? 'https://api.stripe.com'}`);
  }

  env.EVENTS_ENCRYPTION_KEY ??= eventsEncryptionKey(dataDir);
  const tokens = env.API_TOKENS ? null : devTokens(dataDir);
  if (tokens) env.API_TOKENS = apiTokensSetting(tokens);
  // A 2 MiB young generation, and a heap limit that keeps V8 from letting old garbage reach 4x the live heap (README, Memory).
  group.service('api', process.execPath, ['--max-semi-space-size=2', '--max-old-space-size=384', ENTRY.api], env);
  group.service('worker', process.execPath, [ENTRY.worker], env);
  await waitForHealth(`http://127.0.0.1:${port}/health`, HEALTH_TIMEOUT_MS, () => group.isStopping);
  await waitForHealth(`http://127.0.0.1:${workerPort}/health`, HEALTH_TIMEOUT_MS, () => group.isStopping);
  if (group.isStopping) return;
  printReady(port, workerPort, simulated, tokens);
}

const group = new ProcessGroup(ROOT);
group.handleSignals();
main(group).catch((error: unknown) => {
  if (group.isStopping) return;
  warn(`error: ${error instanceof Error ? error.message : String(error)}`);
  void group.shutdown('SIGTERM', 1);
});
