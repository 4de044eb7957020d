import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateFault, CreateRequestFacts } from '../fault-plan.js';
import { parseFormBody, type FormObject } from './form-body.js';
import { arrivedOnReusedConnection } from '../connection-reuse.js';
import { applyGateFault, type Reply } from '../gate-fault.reply.js';
import { headerValue, readBody, sendJson } from '../http-io.js';
import { IdempotencyStore, type StoredResponse } from './idempotency-keys.store.js';
import { newStripeId } from '../ids.js';
import type { StripeEngine } from './stripe-engine.js';
import type { SimulatorStatsSnapshot } from '../simulator-stats.js';
import { stripeErrors } from './stripe-errors.js';

export interface StripeCreateEndpoint<P> {
  counter: keyof SimulatorStatsSnapshot['requests'];
  /** What fault rules may match on, read from the form. */
  facts(form: FormObject): Omit<CreateRequestFacts, 'idempotencyKey'>;
  /** The validated parameters, or Stripe's 400 body (a validation failure stores nothing against the key). */
  readParams(form: FormObject): P | { error: unknown };
  /** Runs the create (or fails it as the fault says) and serialises the response once, for sending and replay. */
  execute(params: P, fault: CreateFault | null, origin: { requestId: string; idempotencyKey: string | null }): StoredResponse;
  /** The configured create latency applies (payment intents; refunds answer at once). */
  slow?: boolean;
}

/**
 * A Stripe create (`POST /v1/payment_intents`, `POST /v1/refunds`) in Stripe's order: gate faults (the request
 * never reaches execution), the idempotency check (replay, mismatch, in flight), validation, then execution,
 * whose result is stored against the key before it is sent, so a lost response is replayed, never re-executed.
 */
export async function stripeIdempotentPost<P>(endpoint: StripeCreateEndpoint<P>, engine: StripeEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const receivedAtMs = Date.now();
  const reusedConnection = arrivedOnReusedConnection(request);
  const key = headerValue(request, 'idempotency-key');
  const requestId = newStripeId('req');
  engine.stats.countRequest(endpoint.counter);
  // Read in full even for `reset_before_read`: rules may match on the body, and the log proves arrival.
  const rawBody = await readBody(request);
  engine.requestLog.record(key, rawBody, request.headers, receivedAtMs);
  const form = parseFormBody(rawBody);
  const facts: CreateRequestFacts = { ...endpoint.facts(form), idempotencyKey: key, reusedConnection };
  const reply: Reply = (status, body, headers = {}) =>
    sendJson(response, status, body, { 'Request-Id': requestId, ...(key ? { 'Idempotency-Key': key } : {}), ...headers });

  const gateFault = engine.faults.takeGateFault(facts);
  if (gateFault) {
    engine.stats.countFault(gateFault);
    return applyGateFault(gateFault, { hangs: engine.hangs, hangMs: engine.config.hangMs }, response, reply, {
      rateLimited: stripeErrors.rateLimited(),
      inProgress: stripeErrors.keyInUse(),
    });
  }

  const fingerprint = IdempotencyStore.fingerprint(rawBody);
  const previous = key ? engine.idempotency.lookup(key, fingerprint) : { kind: 'unused' as const };
  if (previous.kind === 'replay') {
    engine.stats.countReplay();
    return reply(previous.response.status, previous.response.body, { 'Idempotent-Replayed': 'true' });
  }
  if (previous.kind === 'mismatch') return reply(400, stripeErrors.idempotencyMismatch());
  if (previous.kind === 'in_flight') return reply(409, stripeErrors.keyInUse());

  const params = endpoint.readParams(form);
  if (isRefusal(params)) return reply(400, params.error);
  if (key) engine.idempotency.begin(key, fingerprint);
  if (endpoint.slow && engine.config.createLatencyMs > 0) await sleep(engine.config.createLatencyMs);

  const fault = engine.faults.takeExecutionFault(facts);
  if (fault) engine.stats.countFault(fault);
  const origin = { requestId, idempotencyKey: key };
  if (fault === 'create_late') {
    // Stripe holding a request past our read timeout and only then executing it: the object appears after
    // the client gave up, and its key stays in flight until then.
    engine.hangs.hold(response, engine.config.hangMs);
    engine.hangs.defer(engine.config.hangMs, () => {
      const late = endpoint.execute(params, null, origin);
      if (key) engine.idempotency.complete(key, late);
    });
    return;
  }
  const result = endpoint.execute(params, fault, origin);
  const store = () => key && engine.idempotency.complete(key, result);
  if (fault === 'hang_after_create') {
    // To the provider the request is still executing until the connection ends: the key stays in flight.
    return engine.hangs.hold(response, engine.config.hangMs, store);
  }
  store();
  reply(result.status, result.body);
}

function isRefusal<P>(params: P | { error: unknown }): params is { error: unknown } {
  return typeof params === 'object' && params !== null && 'error' in params;
}
