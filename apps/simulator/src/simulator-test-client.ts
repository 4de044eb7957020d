import { ProviderHttpClient } from '@app/gateways';
import type { Simulator } from './simulator.js';

/** Test helper: raw HTTP calls to a running simulator, answered as status, headers and parsed JSON. */
export interface SimResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke at arbitrary Stripe JSON
}

const client = new ProviderHttpClient({ connectTimeoutMs: 1_000, readTimeoutMs: 2_000 });

export async function stripeCall(
  sim: Simulator,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: string; key?: string; auth?: string | null } = {},
): Promise<SimResponse> {
  const headers: Record<string, string> = {};
  if (options.auth !== null) headers.Authorization = options.auth ?? 'Bearer sk_test_sim';
  if (options.key) headers['Idempotency-Key'] = options.key;
  if (options.body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return call(method, `${sim.apiUrl}${path}`, headers, options.body);
}

export async function controlCall(sim: Simulator, method: 'GET' | 'POST', path: string, body?: unknown): Promise<SimResponse> {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  return call(method, `${sim.controlUrl}${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
}

async function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string): Promise<SimResponse> {
  const result = await client.send({ method, url, headers, body });
  if (result.kind !== 'response') throw new Error(`${method} ${url}: ${result.kind} ${result.errorCode}`);
  return { status: result.status, headers: result.headers, json: result.body ? (JSON.parse(result.body) as unknown) : null };
}

export function chargeBody(fields: { customer?: string; attemptId?: string; paymentMethod?: string; amount?: string } = {}): string {
  const params = new URLSearchParams({
    amount: fields.amount ?? '1000',
    currency: 'usd',
    customer: fields.customer ?? 'cus_test',
    payment_method: fields.paymentMethod ?? 'pm_card_visa',
    confirm: 'true',
    off_session: 'true',
    'automatic_payment_methods[enabled]': 'true',
    'automatic_payment_methods[allow_redirects]': 'never',
    'metadata[charge_id]': 'chg_1',
    'metadata[attempt_id]': fields.attemptId ?? 'att_1',
  });
  return params.toString();
}

/** Polls until `condition` holds: for waiting on the simulator's own record of an event, never on a fixed sleep. */
export async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
