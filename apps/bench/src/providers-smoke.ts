import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { loadConfig, type AppConfig } from '@app/config';
import {
  asaasProvider,
  efiPixGateway,
  idEnvioForAttempt,
  stripeProvider,
  type ChargeGateway,
  type GatewayCallResult,
  type LookupResult,
  type PixPayoutGateway,
  type ProviderPorts,
  type RefundGateway,
  type StatementLine,
} from '@app/gateways';

/**
 * `npm run providers:smoke`: before going live, one short real round trip per configured provider, against its
 * sandbox only: a charge with a test card, found again by our reference, part of it refunded, the day's statement
 * read and our charge matched in it; for Efí a sandbox Pix sent and looked up. Live credentials are refused before
 * anything is sent (a smoke test never moves real money). Every step prints its verdict; the exit code is 0 only
 * when every step of every configured provider passed.
 */

export interface SmokeStep {
  provider: string;
  step: string;
  ok: boolean;
  detail: string;
}

export interface SmokeTargets {
  /** Providers to run, with their test instruments. */
  stripe?: { ports: ProviderPorts; paymentMethodId: string; customerId: string };
  asaas?: { ports: ProviderPorts; customerId: string; cardToken: string; customerIp: string };
  efi?: { pix: PixPayoutGateway; payeePixKey: string };
}

/** Why these credentials are not a sandbox's, or null when they are. */
export function liveCredentialProblem(config: AppConfig): string | null {
  const stripeKey = config.STRIPE_SECRET_KEY ?? '';
  if (/^(sk|rk)_live_/.test(stripeKey)) return 'STRIPE_SECRET_KEY is a live key (sk_live_/rk_live_): the smoke test runs against test mode only (sk_test_…)';
  if (config.ASAAS_API_KEY && !isSandboxOrLocal(config.ASAAS_API_BASE, ['api-sandbox.asaas.com', 'sandbox.asaas.com'])) {
    return `ASAAS_API_BASE ${config.ASAAS_API_BASE} is not Asaas's sandbox (https://api-sandbox.asaas.com)`;
  }
  if (config.ASAAS_API_KEY?.startsWith('$aact_prod_')) return 'ASAAS_API_KEY is a production key ($aact_prod_…)';
  if (config.EFI_CLIENT_ID && !isSandboxOrLocal(config.EFI_API_BASE, ['pix-h.api.efipay.com.br'])) {
    return `EFI_API_BASE ${config.EFI_API_BASE} is not Efí's homologation environment (https://pix-h.api.efipay.com.br)`;
  }
  return null;
}

function isSandboxOrLocal(base: string, sandboxHosts: string[]): boolean {
  try {
    const host = new URL(base).hostname;
    return sandboxHosts.includes(host) || host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
  } catch {
    return false;
  }
}

type Report = (step: SmokeStep) => void;

/** Runs every configured provider's round trip; answers every step's verdict, in order. */
export async function runProvidersSmoke(targets: SmokeTargets, report: Report = () => undefined): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const record = (provider: string, step: string, ok: boolean, detail: string) => {
    const s = { provider, step, ok, detail };
    steps.push(s);
    report(s);
    return ok;
  };
  if (targets.stripe) {
    const { ports, paymentMethodId, customerId } = targets.stripe;
    await chargeRoundTrip('stripe', ports, { customerId, paymentMethodId, currency: 'usd', amountCents: 1_234 }, record);
  }
  if (targets.asaas) {
    const { ports, customerId, cardToken, customerIp } = targets.asaas;
    await chargeRoundTrip('asaas', ports, { customerId, paymentMethodId: cardToken, customerIp, currency: 'brl', amountCents: 1_234, billingType: 'CREDIT_CARD' }, record);
  }
  if (targets.efi) await pixRoundTrip(targets.efi.pix, targets.efi.payeePixKey, record);
  return steps;
}

interface TestCharge {
  customerId: string;
  paymentMethodId: string;
  customerIp?: string;
  currency: string;
  amountCents: number;
  billingType?: string;
}

async function chargeRoundTrip(
  provider: string,
  ports: ProviderPorts,
  card: TestCharge,
  record: (provider: string, step: string, ok: boolean, detail: string) => boolean,
): Promise<void> {
  const gateway: ChargeGateway = ports.port('charge');
  const attemptId = randomUUID();
  const chargeId = randomUUID();
  const startedAt = new Date(Date.now() - 60_000);
  const problem = gateway.chargeFieldProblem({ currency: card.currency, billingType: card.billingType ?? null, paymentMethodId: card.paymentMethodId, customerIp: card.customerIp ?? null });
  if (problem) {
    record(provider, 'charge', false, `${problem.field}: ${problem.message}`);
    return;
  }
  const body = gateway.encodeCharge({ attemptId, chargeId, idempotencyKey: randomUUID(), ...card, billingType: card.billingType ?? null, dueDate: null });
  const created = await gateway.createCharge(randomUUID(), body);
  const charged = created.kind === 'response' && created.httpStatus < 300 && created.providerOutcome === 'succeeded' && created.providerChargeId !== null;
  if (!record(provider, 'charge a test card', charged, describeCall(created))) return;
  const providerChargeId = (created as Extract<GatewayCallResult, { kind: 'response' }>).providerChargeId!;

  const found = await gateway.findByReference({ attemptId, chargeId, customerId: card.customerId, createdAt: startedAt, providerChargeId: null });
  const ours = found.kind === 'found' ? found.charges.find((c) => c.providerChargeId === providerChargeId) : undefined;
  record(provider, 'find it by our reference', ours !== undefined && ours.outcome === 'succeeded' && ours.amountCents === card.amountCents, describeLookup(found));

  const refunds: RefundGateway = ports.port('refund');
  const refundCents = Math.floor(card.amountCents / 2);
  const refundBody = refunds.encodeRefund({ attemptId: randomUUID(), refundId: randomUUID(), chargeId, providerChargeId, amountCents: refundCents, currency: card.currency });
  const refunded = await refunds.createRefund(randomUUID(), refundBody);
  record(provider, `refund ${refundCents} of it`, refunded.kind === 'response' && refunded.httpStatus < 300 && refunded.providerOutcome !== 'failed', describeCall(refunded));

  try {
    const to = new Date(Date.now() + 60_000);
    let line: StatementLine | undefined;
    for await (const l of gateway.statement({ from: startedAt, to, source: 'api', requestKey: `smoke-${attemptId}` })) {
      if (l.kind === 'charge' && (l.providerChargeId === providerChargeId || l.attemptId === attemptId)) line = l;
    }
    record(provider, "match it in today's statement", line !== undefined && line.amountCents === card.amountCents, line ? `line ${line.lineId}: ${line.amountCents} ${line.currency}` : 'not in the statement yet');
  } catch (error) {
    record(provider, "match it in today's statement", false, error instanceof Error ? error.message : String(error));
  }
}

async function pixRoundTrip(pix: PixPayoutGateway, payeePixKey: string, record: (provider: string, step: string, ok: boolean, detail: string) => boolean): Promise<void> {
  const attemptId = randomUUID();
  const transferId = idEnvioForAttempt(attemptId);
  // Efí's homologation settles R$0.01–10.00 as executed.
  const body = pix.encodePixSend({ attemptId, amountCents: 100, currency: 'brl', payeePixKey, description: 'charge-once smoke test' });
  const sent = await pix.sendPix(transferId, body);
  if (!record('efi', 'send a sandbox Pix of R$ 1,00', sent.kind === 'response' && sent.httpStatus < 300 && sent.providerOutcome !== 'failed', describeCall(sent))) return;
  const found = await pix.findTransfer(transferId);
  record('efi', 'look it up by idEnvio', found.kind === 'found' && found.charges[0]?.amountCents === 100, describeLookup(found));
}

function describeCall(result: GatewayCallResult): string {
  if (result.kind !== 'response') return `${result.kind}: ${result.message}`;
  const error = result.error ? ` (${[result.error.code, result.error.message].filter(Boolean).join(': ')})` : '';
  return `HTTP ${result.httpStatus}, ${result.providerOutcome ?? 'no outcome'}, ${result.providerChargeId ?? 'no id'}${error}`;
}

function describeLookup(result: LookupResult): string {
  if (result.kind === 'found') return `found ${result.charges.map((c) => `${c.providerChargeId} ${c.outcome} ${c.amountCents}`).join(', ')}`;
  if (result.kind === 'not_found') return 'not found';
  return `error: ${result.message}`;
}

/** The providers the environment configures, with their sandbox test instruments (overridable). */
export function targetsFromConfig(config: AppConfig, env: NodeJS.ProcessEnv = process.env): SmokeTargets {
  const targets: SmokeTargets = {};
  if (config.STRIPE_SECRET_KEY) {
    targets.stripe = { ports: stripeProvider(config), paymentMethodId: env.SMOKE_STRIPE_PAYMENT_METHOD ?? 'pm_card_visa', customerId: env.SMOKE_STRIPE_CUSTOMER ?? '' };
  }
  if (config.ASAAS_API_KEY && env.SMOKE_ASAAS_CUSTOMER && env.SMOKE_ASAAS_CARD_TOKEN) {
    targets.asaas = { ports: asaasProvider(config), customerId: env.SMOKE_ASAAS_CUSTOMER, cardToken: env.SMOKE_ASAAS_CARD_TOKEN, customerIp: env.SMOKE_ASAAS_CUSTOMER_IP ?? '203.0.113.7' };
  }
  if (config.EFI_CLIENT_ID && config.EFI_CLIENT_SECRET) targets.efi = { pix: efiPixGateway(config), payeePixKey: env.SMOKE_EFI_PAYEE_KEY ?? 'efipay@sejaefi.com.br' };
  return targets;
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(`refused: ${error instanceof Error ? error.message : String(error)}\nNothing was sent.`);
    process.exit(2);
  }
  const live = liveCredentialProblem(config);
  if (live) {
    console.error(`refused: ${live}. Nothing was sent.`);
    process.exit(2);
  }
  const targets = targetsFromConfig(config);
  if (Object.keys(targets).length === 0) {
    console.error('no provider is configured: set STRIPE_SECRET_KEY (sk_test_…), ASAAS_API_KEY with SMOKE_ASAAS_CUSTOMER and SMOKE_ASAAS_CARD_TOKEN, or EFI_CLIENT_ID/EFI_CLIENT_SECRET');
    process.exit(2);
  }
  const steps = await runProvidersSmoke(targets, (s) => console.log(`${s.ok ? 'ok  ' : 'FAIL'} ${s.provider.padEnd(6)} ${s.step}: ${s.detail}`));
  const failed = steps.filter((s) => !s.ok).length;
  console.log(failed === 0 ? `all ${steps.length} steps passed` : `${failed} of ${steps.length} steps failed`);
  process.exit(failed === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
