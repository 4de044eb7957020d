import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { ApiModule } from '../../apps/api/src/api.module.js';
import { configureApiApp } from '../../apps/api/src/configure-api-app.js';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import { AppConfig, loadConfig } from '@app/config';
import { ResolutionModule } from '@app/resolution';
import { DEFAULT_ASAAS_WEBHOOK_TOKEN, startSimulator, type EfiSimulator, type Simulator } from '@app/simulator';

export interface TestStack {
  app: INestApplication;
  /** e.g. http://127.0.0.1:41234, for the simulator's webhooks. */
  baseUrl: string;
  http: ReturnType<typeof supertest>;
  db: DataSource;
  sim: Simulator;
  config: AppConfig;
  tokens: { merchant: string; reviewer: string; admin: string };
  auth(role: 'merchant' | 'reviewer' | 'admin'): { Authorization: string };
  close(): Promise<void>;
}

export interface TestStackOptions {
  /** Environment overrides: compressed timings, mostly. */
  env?: Record<string, string>;
  /** Run the worker's processors in the same process (retries, resolution, sweeper). */
  worker?: boolean;
  /** Make the resolver and sweeper available to call directly, without running any processor. */
  resolution?: boolean;
  /** Share a simulator and a queue prefix with another stack (two processes on one system). */
  sim?: Simulator;
  queuePrefix?: string;
  /** An Efí Pix simulator for payouts: EFI_* settings point at it. */
  efi?: EfiSimulator;
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
  const tokens = { merchant: `merchant-${randomUUID()}`, reviewer: `reviewer-${randomUUID()}`, admin: `admin-${randomUUID()}` };
  const config = loadConfig({
    ...process.env,
    ...FAST_TIMINGS,
    STRIPE_API_BASE: sim.apiUrl,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    ASAAS_API_BASE: sim.apiUrl,
    ASAAS_API_KEY: '$aact_test_charge_once',
    ASAAS_WEBHOOK_TOKEN: DEFAULT_ASAAS_WEBHOOK_TOKEN,
    QUEUE_PREFIX: options.queuePrefix ?? `test-${randomUUID().slice(0, 8)}`,
    ...(options.efi
      ? { EFI_API_BASE: options.efi.apiUrl, EFI_CLIENT_ID: 'efi_simulator_client', EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'payouts@charge-once.example' }
      : {}),
    API_TOKENS: Object.entries(tokens).map(([role, token]) => `${role}:${token}`).join(','),
    ...options.env,
  });
  const imports = [ApiModule, ...(options.worker ? [WorkerModule] : options.resolution ? [ResolutionModule] : [])];
  const moduleRef = await Test.createTestingModule({ imports })
    .overrideProvider(AppConfig)
    .useValue(config)
    .compile();
  const app = configureApiApp(moduleRef.createNestApplication<NestExpressApplication>({ rawBody: true, bufferLogs: true }));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    http: supertest(app.getHttpServer()),
    db: app.get(DataSource),
    sim,
    config,
    tokens,
    auth: (role) => ({ Authorization: `Bearer ${tokens[role]}` }),
    close: async () => {
      await app.close();
      if (!options.sim) await sim.close();
    },
  };
}

/** A charge body with a unique order id, so tests never collide on shared tables. */
export function newChargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { orderId: `order-${randomUUID()}`, amountCents: 4990, currency: 'usd', customerId: `cus_${randomUUID().slice(0, 12)}`, paymentMethodId: 'pm_card_visa', ...overrides };
}
