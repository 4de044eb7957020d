import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCreateParams } from './create-params.js';
import type { CreateFault, CreateRequestFacts } from './fault-plan.js';
import { formString, parseFormBody } from './form-body.js';
import { headerValue, readBody, sendJson } from './http-io.js';
import { IdempotencyStore } from './idempotency-store.js';
import type { StoredResponse } from './idempotency-store.js';
import { newStripeId } from './ids.js';
import type { CreateIntentParams } from './payment-intent.js';
import type { SimulatorEngine } from './simulator-engine.js';
import { stripeErrors } from './stripe-errors.js';

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

/**
 * `POST /v1/payment_intents`, in Stripe's order: gate faults (the request never reaches execution), the
 * idempotency check, validation (failures store nothing), then execution, whose result is stored against
 * the key before it is sent, so a lost response is replayed rather than re-executed.
 */
export async function createPaymentIntentRoute(
  engine: SimulatorEngine,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const receivedAtMs = Date.now();
  const key = headerValue(request, 'idempotency-key');
  const requestId = newStripeId('req');
  engine.stats.countRequest('creates');
  // Read in full even for `reset_before_read`: rules may match on the body, and the log proves arrival.
  const rawBody = await readBody(request);
  engine.requestLog.record(key, rawBody, request.headers, receivedAtMs);
  const form = parseFormBody(rawBody);
  const facts: CreateRequestFacts = {
    customerId: formString(form, 'customer'),
    attemptId: formString(form, 'metadata', 'attempt_id'),
    idempotencyKey: key,
  };
  const reply: Reply = (status, body, headers = {}) =>
    sendJson(response, status, body, { 'Request-Id': requestId, ...(key ? { 'Idempotency-Key': key } : {}), ...headers });

  const gateFault = engine.faults.takeGateFault(facts);
  if (gateFault) {
    engine.stats.countFault(gateFault);
    return applyGateFault(gateFault, engine, response, reply);
  }

  const fingerprint = IdempotencyStore.fingerprint(rawBody);
  const previous = key ? engine.idempotency.lookup(key, fingerprint) : { kind: 'unused' as const };
  if (previous.kind === 'replay') {
    engine.stats.countReplay();
    return reply(previous.response.status, previous.response.body, { 'Idempotent-Replayed': 'true' });
  }
  if (previous.kind === 'mismatch') return reply(400, stripeErrors.idempotencyMismatch());
  if (previous.kind === 'in_flight') return reply(409, stripeErrors.keyInUse());

  const params = readCreateParams(form);
  if ('error' in params) return reply(400, params.error);
  if (key) engine.idempotency.begin(key, fingerprint);
  if (engine.config.createLatencyMs > 0) await sleep(engine.config.createLatencyMs);

  const fault = engine.faults.takeExecutionFault(facts);
  if (fault) engine.stats.countFault(fault);
  if (fault === 'create_late') {
    // Stripe holding a request past our read timeout and only then executing it: the charge appears after
    // the client gave up, and its key stays in flight until then.
    engine.hangs.hold(response, engine.config.hangMs);
    engine.hangs.defer(engine.config.hangMs, () => {
      const late = execute(engine, params, null, { requestId, idempotencyKey: key });
      if (key) engine.idempotency.complete(key, late);
    });
    return;
  }
  const result = execute(engine, params, fault, { requestId, idempotencyKey: key });
  const store = () => key && engine.idempotency.complete(key, result);
  if (fault === 'hang_after_create') {
    // To the provider the request is still executing until the connection ends: the key stays in flight.
    return engine.hangs.hold(response, engine.config.hangMs, store);
  }
  store();
  reply(result.status, result.body);
}

export function applyGateFault(fault: CreateFault, engine: SimulatorEngine, response: ServerResponse, reply: Reply): void {
  switch (fault) {
    case 'reset_before_read':
      response.socket?.destroy();
      return;
    case 'hang_before_create':
      return engine.hangs.hold(response, engine.config.hangMs);
    case '429':
      return reply(429, stripeErrors.rateLimited());
    case '409':
      return reply(409, stripeErrors.keyInUse());
    default:
      throw new Error(`${fault} is not a gate fault`);
  }
}

/** Runs the create (or fails it as the fault says) and serialises the response once, for sending and replay. */
function execute(
  engine: SimulatorEngine,
  params: CreateIntentParams,
  fault: CreateFault | null,
  origin: { requestId: string; idempotencyKey: string | null },
): StoredResponse {
  if (fault === '500_before_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  const intent = engine.createIntent(params, origin, fault === 'decline');
  if (fault === '500_after_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  if (intent.last_payment_error) return { status: 402, body: JSON.stringify(stripeErrors.cardDeclined(intent)) };
  return { status: 200, body: JSON.stringify(intent) };
}
