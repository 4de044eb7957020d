import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { ApiModule } from '../../apps/api/src/api.module.js';
import { configureApiApp } from '../../apps/api/src/configure-api-app.js';
import { createApiHttpAdapter } from '../../apps/api/src/edge/http-hardening.js';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import { ReconciliationRunWorkerModule } from '../../apps/worker/src/reconciliation-run-worker.module.js';
import { ApiTokenService } from '@app/auth';
import { AppConfig, loadConfig } from '@app/config';
import { ResolutionModule } from '@app/resolution';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN, startSimulator, type EfiSimulator, type Simulator } from '@app/simulator';
import { listenMetrics } from '@app/observability';
import { ReconciliationClock } from '@app/reconciliation';

export interface TestStack {
  app: INestApplication;
  /** e.g. http://127.0.0.1:41234, for the simulator's webhooks. */
  baseUrl: string;
  http: ReturnType<typeof supertest>;
  /** Every method and path the HTTP server was given (Fastify's onRoute), for the OpenAPI completeness check. */
  routes: Array<{ method: string; path: string }>;
  db: DataSource;
  sim: Simulator;
  config: AppConfig;
  tokens: { merchant: string; reviewer: string; admin: string };
  /** The tokens' names (a merchant's is also its merchant's name; a reviewer's and admin's, their person). */
  tokenNames: { merchant: string; reviewer: string; admin: string };
  /** The stack merchant's id. */
  merchantId: string;
  auth(role: 'merchant' | 'reviewer' | 'admin'): { Authorization: string };
  /** The api's metrics page, from its own metrics port (as serve-api.ts listens, on a free port). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export interface TestStackOptions {
  /** Environment overrides: compressed timings, mostly (undefined unsets a setting the stack would give). */
  env?: Record<string, string | undefined>;
  /** Run the worker's processors in the same process (retries, resolution, sweeper). */
  worker?: boolean;
  /** Run the worker's on-demand reconciliation runs in the same process, and nothing else of the worker. */
  reconciliationRuns?: boolean;
  /** Make the resolver and sweeper available to call directly, without running any processor. */
  resolution?: boolean;
  /** Share a simulator and a queue prefix with another stack (two processes on one system). */
  sim?: Simulator;
  queuePrefix?: string;
  /** An Efí Pix simulator for payouts: EFI_* settings point at it. */
  efi?: EfiSimulator;
  /**
   * Reconciliation's clock this many days on: a run may read only a day that has ended, so a test that reconciles
   * the day its charges were made (or a day the simulator booked later) asks as if from that many days later.
   */
  reconciliationDaysLater?: number;
}

/** Compressed timings: hours of provider behaviour in test-sized milliseconds. */
export const FAST_TIMINGS: Record<string, string> = {
  PROVIDER_CONNECT_TIMEOUT_MS: '500',
  PROVIDER_READ_TIMEOUT_MS: '400',
  SUBMIT_LEASE_MS: '5000',
  SUBMIT_RETRY_BACKOFF_MS: '50,100,200',
  RESOLUTION_BACKOFF_MS: '50,100,200',
  RESOLUTION_MAX_TRIES: '5',
  CONSISTENT_LOOKUP_GRACE_MS: '0',
  SWEEPER_INTERVAL_MS: '60000',
  STRIPE_QUERY_RATE_PER_S: '1000',
  ASAAS_CONSISTENCY_WINDOW_MS: '300',
  ASAAS_QUERY_RATE_PER_S: '1000',
};

/** A real api (and optionally worker) on an ephemeral port, against the real PostgreSQL, Redis and simulator. */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const sim = options.sim ?? (await startSimulator({ port: 0, controlPort: 0 }));
  const config = loadConfig({
    ...process.env,
    ...FAST_TIMINGS,
    STRIPE_API_BASE: sim.apiUrl,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
    ASAAS_API_BASE: sim.apiUrl,
    ASAAS_API_KEY: '$aact_test_charge_once',
    ASAAS_WEBHOOK_TOKEN: DEFAULT_ASAAS_WEBHOOK_TOKEN,
    QUEUE_PREFIX: options.queuePrefix ?? `test-${randomUUID().slice(0, 8)}`,
    ...(options.efi
      ? { EFI_API_BASE: options.efi.apiUrl, EFI_CLIENT_ID: 'efi_simulator_client', EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'payouts@charge-once.example' }
      : {}),
    ...options.env,
  });
  // The stack's tokens are made like token:create's (they live until revoked): API_TOKENS is each api's own setting,
  // and an api booting with another one revokes the env tokens it no longer lists, so parallel stacks use none.
  delete config.API_TOKENS;
  const imports = [
    ApiModule,
    ...(options.worker ? [WorkerModule] : options.resolution ? [ResolutionModule] : []),
    ...(options.reconciliationRuns ? [ReconciliationRunWorkerModule] : []),
  ];
  const builder = Test.createTestingModule({ imports }).overrideProvider(AppConfig).useValue(config);
  const later = (options.reconciliationDaysLater ?? 0) * 86_400_000;
  // Without the option the stack keeps the production clock.
  if (later) builder.overrideProvider(ReconciliationClock).useValue({ now: () => new Date(Date.now() + later) } satisfies ReconciliationClock);
  const moduleRef = await builder.compile();
  const adapter = createApiHttpAdapter(config);
  const routes: TestStack['routes'] = [];
  adapter.getInstance().addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method: method.toLowerCase(), path: route.url });
  });
  const app = await configureApiApp(moduleRef.createNestApplication<NestFastifyApplication>(adapter, { rawBody: true, bufferLogs: true }));
  await app.listen(0, '127.0.0.1');
  const metricsPort = await listenMetrics(0, '127.0.0.1');
  // Fastify answers supertest's requests on app.getHttpServer() only once its plugins are loaded.
  await app.getHttpAdapter().getInstance().ready();
  const { port } = app.getHttpServer().address() as { port: number };
  const suffix = randomUUID().slice(0, 8);
  const tokenNames = { merchant: `merchant-${suffix}`, reviewer: `reviewer-${suffix}`, admin: `admin-${suffix}` };
  const issuer = app.get(ApiTokenService);
  const tokens = {
    merchant: await issuer.create(tokenNames.merchant, 'merchant'),
    reviewer: await issuer.create(tokenNames.reviewer, 'reviewer'),
    admin: await issuer.create(tokenNames.admin, 'admin'),
  };
  const [{ id: merchantId }] = await app.get(DataSource).query<Array<{ id: string }>>(`SELECT id FROM merchants WHERE name = $1`, [tokenNames.merchant]);
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    http: supertest(app.getHttpServer()),
    routes,
    db: app.get(DataSource),
    sim,
    config,
    tokens,
    tokenNames,
    merchantId,
    auth: (role) => ({ Authorization: `Bearer ${tokens[role]}` }),
    metrics: async () => (await fetch(metricsPort.url)).text(),
    close: async () => {
      await new Promise((resolve) => metricsPort.server.close(resolve));
      await app.close();
      if (!options.sim) await sim.close();
    },
  };
}

/** A charge body with a unique order id, so tests never collide on shared tables. */
export function newChargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'usd', customerId: `cus_${randomUUID().slice(0, 12)}`, paymentMethodId: 'pm_card_visa', ...overrides };
}
