import { say } from './terminal.js';

export interface SimulatorPorts {
  api: number;
  control: number;
  app: number;
}

/**
 * With no STRIPE_SECRET_KEY, the app talks to the local simulator (Stripe, and Asaas under /v3 unless
 * ASAAS_API_KEY is set) and says so loudly: no real money moves. Fills in the env the simulator and the
 * app need.
 */
export function useSimulator(env: NodeJS.ProcessEnv, ports: SimulatorPorts): void {
  Object.assign(env, {
    SIMULATOR_PORT: String(ports.api),
    SIMULATOR_CONTROL_PORT: String(ports.control),
    SIMULATOR_WEBHOOK_URL: env.SIMULATOR_WEBHOOK_URL ?? `http://127.0.0.1:${ports.app}/webhooks/stripe`,
    STRIPE_API_BASE: `http://127.0.0.1:${ports.api}`,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    // The simulator signs its webhooks with its own public secret: only ever set here, for the simulator.
    STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
  });
  say('STRIPE_SECRET_KEY is not set: using the local Stripe SIMULATOR, not Stripe. No real money moves.');
  say(`  simulated Stripe API http://127.0.0.1:${ports.api}, control API http://127.0.0.1:${ports.control}/_sim, webhooks to ${env.SIMULATOR_WEBHOOK_URL}`);
  say('  set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET) to talk to Stripe instead');
  if (env.ASAAS_API_KEY) return;
  // The same simulator answers Asaas under /v3; its webhooks carry the simulator's token.
  Object.assign(env, {
    ASAAS_API_BASE: `http://127.0.0.1:${ports.api}`,
    ASAAS_API_KEY: '$aact_simulator',
    ASAAS_WEBHOOK_TOKEN: env.ASAAS_WEBHOOK_TOKEN ?? 'asaas-dev-simulator-token',
    SIMULATOR_ASAAS_WEBHOOK_URL: env.SIMULATOR_ASAAS_WEBHOOK_URL ?? `http://127.0.0.1:${ports.app}/webhooks/asaas`,
  });
  say(`ASAAS_API_KEY is not set: provider "asaas" uses the same SIMULATOR (http://127.0.0.1:${ports.api}/v3), webhooks to ${env.SIMULATOR_ASAAS_WEBHOOK_URL}`);
}
