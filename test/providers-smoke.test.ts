import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@app/config';
import { startEfiSimulator, startSimulator, type EfiSimulator, type Simulator } from '@app/simulator';
import { liveCredentialProblem, runProvidersSmoke, targetsFromConfig } from '../apps/bench/src/providers-smoke.js';

/**
 * Issue 35, part 5: `npm run providers:smoke` is the round trip a team runs against each provider's sandbox before
 * going live. Here it runs against the simulators (the same adapters, the same configuration path), and every step
 * must pass; live credentials are refused before anything is sent.
 */
describe('providers:smoke', () => {
  let sim: Simulator;
  let efi: EfiSimulator;
  const env = () => ({
    STRIPE_API_BASE: sim.apiUrl,
    STRIPE_SECRET_KEY: 'sk_test_simulator',
    STRIPE_WEBHOOK_SECRET: 'whsec_smoke_test_secret',
    ASAAS_API_BASE: sim.apiUrl,
    ASAAS_API_KEY: '$aact_test_charge_once',
    ASAAS_WEBHOOK_TOKEN: 'asaas-webhook-token-for-the-smoke-test-0123456789',
    EFI_API_BASE: efi.apiUrl,
    EFI_CLIENT_ID: 'efi_simulator_client',
    EFI_CLIENT_SECRET: 'efi_simulator_secret',
    EFI_PIX_KEY: 'payouts@charge-once.example',
    SMOKE_STRIPE_CUSTOMER: 'cus_smoke',
    SMOKE_ASAAS_CUSTOMER: 'cus_000005219613',
    SMOKE_ASAAS_CARD_TOKEN: '76496073-536f-4835-80db-c45d00f33695',
    // The simulator books Asaas payments on UTC's day; read in America/Sao_Paulo, a payment made from 00:00 to
    // 03:00 UTC was on the next day's page and "not in the statement yet".
    RECONCILIATION_TZ: 'UTC',
  });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, controlPort: 0 });
    efi = await startEfiSimulator({ settleAfterMs: 10 });
  });
  afterAll(async () => {
    await sim?.close();
    await efi?.close();
  });

  it('passes every step for Stripe, Asaas and Efí, and really moved what it says', async () => {
    const config = loadConfig({ ...process.env, ...env() });
    expect(liveCredentialProblem(config)).toBeNull();
    const steps = await runProvidersSmoke(targetsFromConfig(config, env()));
    expect(steps.filter((s) => !s.ok)).toEqual([]);
    expect(steps.map((s) => `${s.provider}: ${s.step}`)).toEqual([
      'stripe: charge a test card',
      'stripe: find it by our reference',
      'stripe: refund 617 of it',
      "stripe: match it in today's statement",
      'asaas: charge a test card',
      'asaas: find it by our reference',
      'asaas: refund 617 of it',
      "asaas: match it in today's statement",
      'efi: send a sandbox Pix of R$ 1,00',
      'efi: look it up by idEnvio',
    ]);
    // The simulators counted what the smoke test did: one charge each, one refund each, one Pix.
    expect(sim.intents({}).filter((i) => i.customer === 'cus_smoke')).toHaveLength(1);
    expect(sim.asaasPayments({}).filter((p) => p.customer === 'cus_000005219613' && p.billingType === 'CREDIT_CARD')).toHaveLength(1);
    expect(efi.stats().transfersCreated).toBe(1);
  });

  it('refuses live credentials, naming them, before anything is sent', () => {
    const problem = (overrides: Record<string, string>) => liveCredentialProblem(loadConfig({ ...process.env, ...env(), ...overrides }));
    expect(problem({ STRIPE_SECRET_KEY: 'sk_live_abc' })).toMatch(/STRIPE_SECRET_KEY is a live key/);
    expect(problem({ ASAAS_API_BASE: 'https://api.asaas.com' })).toMatch(/not Asaas's sandbox/);
    expect(problem({ EFI_API_BASE: 'https://pix.api.efipay.com.br' })).toMatch(/not Efí's homologation/);
    expect(problem({ ASAAS_API_BASE: 'https://api-sandbox.asaas.com' })).toBeNull();
  });
});
