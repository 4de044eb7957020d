import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ProviderHttpClient, encodeStripeCharge } from '@app/gateways';

/**
 * The floor under bench:submit: the same HTTP exchanges as a charge through the api (create, then submit with one
 * provider call to the same simulator, through the same provider HTTP client and encoding), on bare `node:http`
 * with no framework, no authentication, no validation and no database. No service built on Node's HTTP stack can
 * be faster on this machine, so its rate, as a ratio of the database's, bounds the api's ratio from above.
 * Run by bench:submit as its own process (`node dist/apps/bench/src/http-floor.server.js`, PORT, STRIPE_API_BASE).
 */
const port = Number(process.env.PORT);
const apiBase = process.env.STRIPE_API_BASE ?? '';
// Connections kept alive like the api's Stripe gateway: the floor pays what the api pays for the provider call.
const provider = new ProviderHttpClient({ connectTimeoutMs: 2_000, readTimeoutMs: 10_000 }, {}, 'kept-alive');
const charges = new Map<string, { amountCents: number; currency: string; customerId: string; paymentMethodId: string }>();

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function reply(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

async function route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const body = await readBody(request);
  if (request.method === 'GET' && request.url === '/health') return reply(response, 200, { status: 'ok' });
  if (request.method === 'POST' && request.url === '/charges') {
    const input = JSON.parse(body) as { amountCents: number; currency: string; customerId: string; paymentMethodId: string };
    const id = randomUUID();
    charges.set(id, input);
    return reply(response, 201, { id, status: 'created', ...input });
  }
  const submit = /^\/charges\/([^/]+)\/submit$/.exec(request.url ?? '');
  const charge = submit ? charges.get(submit[1]) : undefined;
  if (request.method === 'POST' && submit && charge) {
    const attemptId = randomUUID();
    const encoded = encodeStripeCharge({ attemptId, chargeId: submit[1], idempotencyKey: attemptId, ...charge });
    const result = await provider.send({
      method: 'POST',
      url: `${apiBase}/v1/payment_intents`,
      headers: { Authorization: 'Bearer sk_test_simulator', 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': attemptId },
      body: encoded,
    });
    const status = result.kind === 'response' && result.status === 200 && (JSON.parse(result.body) as { status?: string }).status === 'succeeded' ? 'succeeded' : 'unknown';
    charges.delete(submit[1]);
    return reply(response, 200, { id: submit[1], status });
  }
  reply(response, 404, { statusCode: 404 });
}

http
  .createServer((request, response) => {
    route(request, response).catch((error: unknown) => reply(response, 500, { message: String(error) }));
  })
  .listen(port, '127.0.0.1');
