import type { ServerOptions } from 'node:https';
import { RestartableListener } from '../restartable-listener.js';
import type { FaultPlan, PendingFaultRule } from '../fault-plan.js';
import { EfiEngine, type PlantedTransfer } from './efi-engine.js';
import { createEfiRouter } from './efi-router.js';
import { DEFAULT_EFI_CONFIG, type EfiSimulatorConfig } from './efi-simulator-config.js';
import type { EfiSimulatorStats } from './efi-stats.js';
import type { EfiPixStatus, EfiTransfer } from './efi-transfers.store.js';
import type { EfiWebhookDelivery } from './efi-webhook-sender.js';

export interface EfiSimulatorOptions extends Partial<EfiSimulatorConfig> {
  port?: number;
  host?: string;
  /** Serve HTTPS; with `requestCert` and `rejectUnauthorized`, only callers holding a client certificate get in. */
  tls?: ServerOptions;
}

/** A running Efí Pix simulator, driven in process (tests). */
export interface EfiSimulator {
  /** e.g. `https://127.0.0.1:41234`: use it as EFI_API_BASE. */
  readonly apiUrl: string;
  stats(): EfiSimulatorStats;
  transfers(): EfiTransfer[];
  configure(patch: Partial<EfiSimulatorConfig>): EfiSimulatorConfig;
  /** The same fault plan as the Stripe simulator: create faults strike `PUT /v3/gn/pix/:idEnvio` (match on
   * `idempotencyKey` = idEnvio), query faults strike lookups. */
  setFaults(plan: FaultPlan): void;
  pendingFaults(): PendingFaultRule[];
  /** Transfers as if sent earlier, without settling or webhooks: a statement day for a bench or test. */
  plantTransfers(transfers: PlantedTransfer[]): void;
  /** Moves a transfer still EM_PROCESSAMENTO to its final state and sends its webhook. */
  settle(idEnvio: string, status: EfiPixStatus): EfiTransfer;
  /** The payee's bank sends back `cents` of an executed transfer: it shows in the Pix's `devolucoes`. */
  returnPix(idEnvio: string, cents: number, at?: Date): { rtrId: string; valor: string; horario: string };
  /** Moves when a transfer was requested (its statement day), as if it had been sent then. */
  backdateTransfer(idEnvio: string, requestedAt: Date): void;
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  webhookDeliveries(): EfiWebhookDelivery[];
  webhooksIdle(): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startEfiSimulator(options: EfiSimulatorOptions = {}): Promise<EfiSimulator> {
  const { port = 0, host = '127.0.0.1', tls, ...config } = options;
  const engine = new EfiEngine({ ...DEFAULT_EFI_CONFIG, ...config });
  const api = new RestartableListener(createEfiRouter(engine), host, tls);
  await api.listen(port);
  const scheme = tls ? 'https' : 'http';
  return {
    get apiUrl() {
      return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${api.boundPort}`;
    },
    stats: () => engine.stats(),
    transfers: () => engine.transfers.all(),
    configure: (patch) => structuredClone(engine.configure(patch)),
    setFaults: (plan) => engine.faults.setPlan(plan),
    pendingFaults: () => engine.faults.pendingRules(),
    plantTransfers: (transfers) => engine.plant(transfers),
    settle: (idEnvio, status) => structuredClone(engine.settle(idEnvio, status)),
    returnPix: (idEnvio, cents, at) => engine.returnPix(idEnvio, cents, at),
    backdateTransfer: (idEnvio, requestedAt) => engine.transfers.backdate(idEnvio, requestedAt),
    refuseConnections: async () => {
      if (api.accepting) engine.countFault('refuse_connections');
      await api.refuse();
    },
    acceptConnections: () => api.accept(),
    webhookDeliveries: () => engine.webhooks.deliveries(),
    webhooksIdle: () => engine.webhooks.idle(),
    reset: async () => {
      engine.reset();
      await api.accept();
    },
    close: async () => {
      engine.close();
      await api.close();
    },
  };
}
