import { randomBytes, randomUUID } from 'node:crypto';
import { envTokenName } from '@app/auth';
import { migrateDatabase } from '@app/database';
import { signStripePayload } from '@app/gateways';
import { startEfiSimulator, startSimulator, type CreateFault } from '@app/simulator';
import { startService, waitForHealth } from './bench-process.js';
import { startEventReceiver } from './event-receiver.js';

/**
 * `npm run demo`: a guided tour with real processes. It starts the Stripe and Efí simulators, an api and a worker
 * (timings compressed to seconds), then walks through the failures this service exists for and prints what
 * happened at the provider, so the claim "never charged twice" can be watched rather than believed.
 */
const port = 3800 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const token = randomBytes(24).toString('hex');
const adminToken = randomBytes(24).toString('hex');
const databaseUrl = process.env.DEMO_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/charge_once_demo';
const timings = {
  PROVIDER_READ_TIMEOUT_MS: '1000',
  SUBMIT_RETRY_BACKOFF_MS: '500,1000',
  RESOLUTION_BACKOFF_MS: '500,1000,2000',
  RESOLUTION_MAX_TRIES: '3',
  CONSISTENT_LOOKUP_GRACE_MS: '1500',
  SWEEPER_INTERVAL_MS: '2000',
};

await migrateDatabase(databaseUrl);
const sim = await startSimulator({ port: 0, controlPort: 0, webhook: { url: `${base}/webhooks/stripe`, duplicates: 1, reorder: true } });
const efi = await startEfiSimulator({ hangMs: 1500 });
const env = {
  ...timings,
  PORT: String(port),
  DATABASE_URL: databaseUrl,
  STRIPE_API_BASE: sim.apiUrl,
  STRIPE_SECRET_KEY: 'sk_test_simulator',
  STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator',
  EFI_API_BASE: efi.apiUrl,
  EFI_CLIENT_ID: 'efi_simulator_client',
  EFI_CLIENT_SECRET: 'efi_simulator_secret',
  EFI_PIX_KEY: 'payouts@charge-once.example',
  QUEUE_PREFIX: `demo-${randomUUID().slice(0, 8)}`,
  API_TOKENS: `merchant:demo-merchant:${token},admin:demo-admin:${adminToken}`,
  EVENTS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  // The merchant's receiver below listens on 127.0.0.1 over plain http.
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};
const services = [startService('api', env), startService('worker', env)];

interface View {
  id: string;
  status: string;
  attempts: Array<{ idempotencyKey: string; status: string; httpAttempts: number; lastError: { reason?: string } | null; resolvedBy: string | null }>;
}

async function call<T = View>(method: string, path: string, body?: unknown, as = token, extra: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json', ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

const newCharge = (customerId: string) =>
  call('POST', '/charges', { orderId: `demo-${randomUUID().slice(0, 8)}`, amountCents: 4990, currency: 'usd', customerId, paymentMethodId: 'pm_card_visa' });

async function settle(id: string): Promise<View> {
  for (let i = 0; i < 60; i++) {
    const view = await call('GET', `/charges/${id}`);
    if (view.status !== 'processing') return view;
    await new Promise((r) => setTimeout(r, 250));
  }
  return call('GET', `/charges/${id}`);
}

function show(label: string, view: View): void {
  const attempts = view.attempts
    .map((a) => `${a.status}${a.lastError?.reason ? ` (${a.lastError.reason})` : ''}${a.resolvedBy ? ` by ${a.resolvedBy}` : ''}, ${a.httpAttempts} call(s)`)
    .join(' → ');
  console.log(`  ${label}: charge ${view.status}; attempts: ${attempts}`);
}

async function scenario(title: string, fault: CreateFault | null, note: string, webhooks = true): Promise<void> {
  const customerId = `cus_${randomUUID().slice(0, 8)}`;
  if (fault) sim.setFaults({ rules: [{ fault, match: { customerId } }] });
  sim.configure({ webhook: { dropRate: webhooks ? 0 : 1 } });
  console.log(`\n${title}\n  ${note}`);
  const charge = await newCharge(customerId);
  show('right after submit', await call('POST', `/charges/${charge.id}/submit`));
  let final = await settle(charge.id);
  show('settled', final);
  if (final.status === 'failed') {
    final = await call('POST', `/charges/${charge.id}/submit`);
    show('customer retries', await settle(final.id));
  }
  const intents = sim.intents({ customerId });
  console.log(`  at the provider: ${intents.length} intent(s), ${intents.filter((i) => i.status === 'succeeded').length} succeeded`);
}

// The merchant's side: every event the service sends, verified with the Standard Webhooks library, as it arrives.
const receiver = await startEventReceiver((event, fresh) => {
  const again = fresh ? '' : ` (again, ${event.deliveries}×, same webhook-id: ${event.webhookIds.size === 1})`;
  console.log(`  ⇢ merchant's receiver: ${event.type} for ${event.objectId.slice(0, 8)}…, signature verified${again}`);
});

try {
  await waitForHealth(base);
  console.log(`charge-once demo: api ${base}, worker, Stripe simulator ${sim.apiUrl}`);
  const endpoint = await call<{ id: string; secret: string }>('POST', '/webhook-endpoints', { url: receiver.url, description: 'demo receiver' });
  receiver.trust(endpoint.secret);
  console.log(`  the merchant registered a webhook endpoint (${receiver.url}); its secret ${endpoint.secret.slice(0, 10)}… was shown once`);
  await scenario('1. A normal charge', null, 'One call, a 2xx: succeeded.');
  await scenario('2. The provider creates the charge, then the response is lost (its webhooks lost too)', 'hang_after_create', 'A read timeout is not a failure: the attempt is unknown, and the worker asks the provider (by our reference) instead of charging again.', false);
  await scenario('3. The same, but the provider\'s webhook gets through', 'hang_after_create', 'The signed webhook settles the attempt, even while our call is still waiting for its answer.');
  await scenario('4. The provider fails before creating anything', '500_before_create', 'A 5xx is unknown too; the lookup finds nothing, so after the consistency grace it is failed, and a retry uses a new key.');
  await scenario('5. The provider rate-limits us', '429', 'Nothing was processed: the same key and the same bytes are sent again after a backoff.');

  console.log('\n6. A customer double-clicks 20 times at once');
  const charge = await newCharge(`cus_${randomUUID().slice(0, 8)}`);
  const views = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/charges/${charge.id}/submit`)));
  console.log(`  20 submits answered with ${new Set(views.flatMap((v) => v.attempts.map((a) => a.idempotencyKey))).size} attempt; intents at the provider: ${sim.intents().filter((i) => i.metadata.charge_id === charge.id).length}`);

  console.log('\n7. Someone forges a webhook');
  const forged = JSON.stringify({ id: 'evt_forged', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x', object: 'payment_intent', metadata: {} } } });
  const res = await fetch(`${base}/webhooks/stripe`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signStripePayload(forged, 'whsec_guess', Math.floor(Date.now() / 1000)) }, body: forged });
  console.log(`  answered ${res.status}: ${((await res.json()) as { message: string }).message}`);

  await payoutScene();

  await sim.webhooksIdle();
  const stats = sim.stats();
  console.log('\nAt the provider, overall:');
  console.log(`  faults injected: ${JSON.stringify(stats.faultsInjected)}`);
  console.log(`  intents created: ${stats.intentsCreated}; most intents for one idempotency key: ${Math.max(...Object.values(stats.createsByIdempotencyKey))}`);
  console.log(`  webhooks delivered: ${stats.webhooks.delivered} (duplicates ${stats.webhooks.duplicated}, reordered batches)`);
  const received = [...receiver.events.values()];
  console.log('\nAt the merchant\'s receiver:');
  console.log(`  ${received.length} events, every one verified with standardwebhooks; ${receiver.rejected()} refused signatures`);
  console.log(`  by type: ${JSON.stringify(Object.fromEntries([...new Set(received.map((e) => e.type))].map((t) => [t, received.filter((e) => e.type === t).length])))}`);
} finally {
  await receiver.close();
  await Promise.all(services.map((s) => s.stop()));
  await sim.close();
  await efi.close();
}

/** Money out: Efí executes a Pix transfer, but its answer never arrives. The reservation holds until it is known. */
async function payoutScene(): Promise<void> {
  interface Payout { id: string; status: string; attempts: Array<{ status: string; resolvedBy: string | null; httpAttempts: number }> }
  interface Balance { availableCents: number; reservedCents: number }
  console.log('\n8. A Pix payout: Efí executes the transfer, then the response is lost');
  console.log('  The money stays reserved while the outcome is unknown; the worker asks Efí by our idEnvio, finds it executed, and the reservation becomes a debit. Never sent twice.');
  const account = await call<{ id: string }>('POST', '/accounts', { ownerTokenName: envTokenName({ role: 'merchant', holder: 'demo-merchant', token }), currency: 'brl' }, adminToken);
  await call('POST', `/accounts/${account.id}/credits`, { amountCents: 50_000, reference: `demo-${randomUUID().slice(0, 8)}` }, adminToken, { 'Idempotency-Key': randomUUID() });
  efi.setFaults({ rules: [{ fault: 'hang_after_create', times: 1 }] });
  const sent = await call<Payout>('POST', `/accounts/${account.id}/payouts`, { amountCents: 12_000, pixKey: 'payee@example.com.br', pixKeyType: 'email' });
  const balance = () => call<Balance>('GET', `/accounts/${account.id}/balance`);
  const showPayout = (label: string, p: Payout, b: Balance) =>
    console.log(`  ${label}: payout ${p.status} (attempt ${p.attempts.map((a) => `${a.status}${a.resolvedBy ? ` by ${a.resolvedBy}` : ''}, ${a.httpAttempts} call(s)`).join(' → ')}); balance available ${b.availableCents}, reserved ${b.reservedCents}`);
  showPayout('right after send', sent, await balance());
  let payout = sent;
  for (let i = 0; i < 60 && payout.status === 'processing'; i++) {
    await new Promise((r) => setTimeout(r, 250));
    payout = await call<Payout>('GET', `/payouts/${payout.id}`);
  }
  showPayout('settled', payout, await balance());
  const stats = efi.stats();
  console.log(`  at Efí: ${efi.transfers().length} transfer(s), faults ${JSON.stringify(stats.faultsInjected)}, most debits for one idEnvio: ${Math.max(...Object.values(stats.debitsByIdEnvio))}`);
}
