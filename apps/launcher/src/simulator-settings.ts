import { randomBytes } from 'node:crypto';
import { SIMULATOR_EFI_CLIENT_SECRET } from '@app/config';
import { say } from './terminal.js';

export interface SimulatorPorts {
  api: number;
  control: number;
  efi: number;
  app: number;
}

/**
 * With no STRIPE_SECRET_KEY, the app talks to the local simulator (Stripe; Asaas under /v3 unless ASAAS_API_KEY
 * is set; Efí's Pix API on its own port unless EFI_CLIENT_SECRET is set) and says so loudly: no real money moves.
 * Fills in the env the simulator and the app need.
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
    // A merchant trying the service locally receives its events on localhost over http.
    WEBHOOK_ALLOW_PRIVATE_URLS: env.WEBHOOK_ALLOW_PRIVATE_URLS ?? 'true',
  });
  say('STRIPE_SECRET_KEY is not set: using the local Stripe SIMULATOR, not Stripe. No real money moves.');
  say(`  simulated Stripe API http://127.0.0.1:${ports.api}, control API http://127.0.0.1:${ports.control}/_sim, webhooks to ${env.SIMULATOR_WEBHOOK_URL}`);
  say('  set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET) to talk to Stripe instead');
  if (env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true') say('  webhook endpoints may be http and local (WEBHOOK_ALLOW_PRIVATE_URLS=true): simulator mode only');
  if (!env.ASAAS_API_KEY) useAsaasSimulator(env, ports);
  if (!env.EFI_CLIENT_SECRET) useEfiSimulator(env, ports);
}

function useAsaasSimulator(env: NodeJS.ProcessEnv, ports: SimulatorPorts): void {
  // The same simulator answers Asaas under /v3; its webhooks carry the simulator's token.
  Object.assign(env, {
    ASAAS_API_BASE: `http://127.0.0.1:${ports.api}`,
    ASAAS_API_KEY: '$aact_simulator',
    ASAAS_WEBHOOK_TOKEN: env.ASAAS_WEBHOOK_TOKEN ?? 'asaas-dev-simulator-token',
    SIMULATOR_ASAAS_WEBHOOK_URL: env.SIMULATOR_ASAAS_WEBHOOK_URL ?? `http://127.0.0.1:${ports.app}/webhooks/asaas`,
  });
  say(`ASAAS_API_KEY is not set: provider "asaas" uses the same SIMULATOR (http://127.0.0.1:${ports.api}/v3), webhooks to ${env.SIMULATOR_ASAAS_WEBHOOK_URL}`);
}

/**
 * Pix payouts go to the simulator's Efí API (plain HTTP on 127.0.0.1: the account certificate is for the real
 * host). Its sent-Pix webhooks authenticate as Efí documents for a proxy that terminates TLS: a secret `hmac`
 * parameter in the registered URL (`&ignorar=` swallows the `/pix` Efí appends). The secret is new every run.
 */
function useEfiSimulator(env: NodeJS.ProcessEnv, ports: SimulatorPorts): void {
  const hmac = randomBytes(24).toString('base64url');
  Object.assign(env, {
    SIMULATOR_EFI_PORT: String(ports.efi),
    SIMULATOR_EFI_WEBHOOK_URL: `http://127.0.0.1:${ports.app}/webhooks/efi?hmac=${hmac}&ignorar=`,
    EFI_API_BASE: `http://127.0.0.1:${ports.efi}`,
    EFI_CLIENT_ID: 'efi_simulator_client',
    EFI_CLIENT_SECRET: SIMULATOR_EFI_CLIENT_SECRET,
    EFI_PIX_KEY: env.EFI_PIX_KEY ?? 'payouts@charge-once.example',
    EFI_WEBHOOK_HMAC: hmac,
  });
  say(`EFI_CLIENT_SECRET is not set: Pix payouts ("efi") use the SIMULATOR too (http://127.0.0.1:${ports.efi}), webhooks to http://127.0.0.1:${ports.app}/webhooks/efi`);
}
