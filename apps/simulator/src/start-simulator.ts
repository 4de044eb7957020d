import { RestartableListener } from './restartable-listener.js';
import { createControlRouter } from './control-routes.js';
import { DEFAULT_CONFIG, applyConfigPatch } from './simulator-config.js';
import { SimulatorEngine } from './simulator-engine.js';
import type { Simulator, SimulatorOptions } from './simulator.js';
import { createApiRouter } from './api-router.js';
import { QueryArrivals } from './query-arrivals.js';

/**
 * Starts the Stripe API and the control API on two ports, so closing the first (to refuse connections)
 * leaves the second reachable. Resolves once both are listening.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { port = 0, controlPort = 0, host = '127.0.0.1', recordQueryArrivals = false, ...configPatch } = options;
  const engine = new SimulatorEngine(applyConfigPatch(DEFAULT_CONFIG, configPatch));
  const arrivals = recordQueryArrivals ? new QueryArrivals() : null;
  const router = createApiRouter(engine);
  const api = new RestartableListener(arrivals ? arrivals.stamping(router) : router, host);
  let control: RestartableListener | null = null;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const simulator: Simulator = {
    get apiUrl() {
      return `http://${urlHost}:${api.boundPort}`;
    },
    get controlUrl() {
      return `http://${urlHost}:${control?.boundPort ?? 0}`;
    },
    stats: () => engine.stats.snapshot(engine.hangs.size),
    queryArrivals: () => ({ recording: arrivals !== null, at: arrivals?.list() ?? [] }),
    requests: (idempotencyKey) => engine.stripe.requestLog.list(idempotencyKey),
    intents: (filter) => engine.stripe.intents(filter),
    pruneIdempotencyKeys: () => ({ pruned: engine.stripe.pruneIdempotencyKeys() }),
    refunds: (filter) => engine.stripe.refunds(filter),
    setRefundStatus: (refundId, status, created) => structuredClone(engine.stripe.setRefundStatus(refundId, status, created)),
    config: () => structuredClone(engine.config),
    configure: (patch) => structuredClone(engine.configure(patch)),
    setFaults: (plan) => engine.faults.setPlan(plan),
    pendingFaults: () => engine.faults.pendingRules(),
    refuseConnections: async () => {
      // Each window counts once: the kernel refuses the connections, so the simulator never sees them.
      if (api.accepting) engine.stats.countFault('refuse_connections');
      await api.refuse();
    },
    acceptConnections: () => api.accept(),
    setIntentStatus: (intentId, status) => structuredClone(engine.stripe.setIntentStatus(intentId, status)),
    sendWebhook: ({ eventType, intentId }) => engine.stripe.sendWebhook(eventType, intentId),
    forgeWebhook: ({ type, attemptId }) => engine.stripe.forgeWebhook(type, attemptId),
    plantCharges: (charges) => charges.map((charge) => engine.stripe.statement.plantCharge(charge)),
    addMovement: (intentId, kind, input) => engine.stripe.statement.addMovement(intentId, kind, input),
    webhookDeliveries: () => engine.stripe.webhooks.deliveries(),
    webhooksIdle: async () => {
      await Promise.all([engine.stripe.webhooks.idle(), engine.asaas.webhooks.idle()]);
    },
    asaasPayments: (filter) => engine.asaas.payments(filter),
    plantAsaasPayments: (payments) => engine.asaas.plantPayments(payments),
    asaasRequests: (externalReference) => engine.asaas.requestLog.list(externalReference),
    setAsaasPaymentStatus: (paymentId, status) => structuredClone(engine.asaas.setPaymentStatus(paymentId, status)),
    bookAsaasMovement: (paymentId, type, on) => engine.asaas.bookMovement(paymentId, type, on),
    settleAsaasRefund: (paymentId, index, status, bookedOn) => structuredClone(engine.asaas.settleRefund(paymentId, index, status, bookedOn)),
    sendAsaasWebhook: ({ event, paymentId, forged }) => engine.asaas.sendWebhook(event, paymentId, forged ?? false),
    asaasWebhookDeliveries: () => engine.asaas.webhooks.deliveries(),
    reset: async () => {
      engine.reset();
      arrivals?.reset();
      await api.accept();
    },
    close: async () => {
      engine.close();
      await Promise.all([api.close(), control?.close()]);
    },
  };

  await api.listen(port);
  control = new RestartableListener(createControlRouter(simulator), host);
  try {
    await control.listen(controlPort);
  } catch (error) {
    await api.close();
    throw error;
  }
  return simulator;
}
