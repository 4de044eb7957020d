import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CreateRequestFacts } from './fault-plan.js';
import { formString, parseFormBody } from './form-body.js';
import { headerValue, readBody, sendJson } from './http-io.js';
import { IdempotencyStore } from './idempotency-store.js';
import type { StoredResponse } from './idempotency-store.js';
import { newStripeId } from './ids.js';
import { readRefundParams } from './refund-params.js';
import type { CreateRefundParams } from './refund.js';
import type { SimulatorEngine } from './simulator-engine.js';
import { applyGateFault, type Reply } from './stripe-create-route.js';
import { stripeErrors } from './stripe-errors.js';

/**
 * `POST /v1/refunds`, in the same order as a payment intent's create and with the same fault knobs: gate
 * faults, the idempotency check (replay, mismatch, in flight), validation (stores nothing), then execution,
 * whose result is stored against the key before it is sent. `decline` makes the refund `failed`.
 */
export async function createRefundRoute(engine: SimulatorEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const receivedAtMs = Date.now();
  const key = headerValue(request, 'idempotency-key');
  const requestId = newStripeId('req');
  engine.stats.countRequest('refundCreates');
  const rawBody = await readBody(request);
  engine.requestLog.record(key, rawBody, request.headers, receivedAtMs);
  const form = parseFormBody(rawBody);
  const intentId = formString(form, 'payment_intent');
  const facts: CreateRequestFacts = {
    customerId: (intentId ? engine.ledger.get(intentId)?.customer : null) ?? null,
    attemptId: formString(form, 'metadata', 'refund_attempt_id'),
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

  const params = readRefundParams(form, engine.ledger, engine.refundLedger);
  if ('error' in params) return reply(400, params.error);
  if (key) engine.idempotency.begin(key, fingerprint);

  const fault = engine.faults.takeExecutionFault(facts);
  if (fault) engine.stats.countFault(fault);
  const origin = { requestId, idempotencyKey: key };
  if (fault === 'create_late') {
    engine.hangs.hold(response, engine.config.hangMs);
    engine.hangs.defer(engine.config.hangMs, () => {
      const late = execute(engine, params, null, origin);
      if (key) engine.idempotency.complete(key, late);
    });
    return;
  }
  const result = execute(engine, params, fault, origin);
  const store = () => key && engine.idempotency.complete(key, result);
  if (fault === 'hang_after_create') return engine.hangs.hold(response, engine.config.hangMs, store);
  store();
  reply(result.status, result.body);
}

function execute(engine: SimulatorEngine, params: CreateRefundParams, fault: string | null, origin: { requestId: string; idempotencyKey: string | null }): StoredResponse {
  if (fault === '500_before_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  const refund = engine.createRefund(params, origin, fault === 'decline');
  if (fault === '500_after_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  return { status: 200, body: JSON.stringify(refund) };
}
