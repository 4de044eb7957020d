import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isRecord } from '@app/common';
import { InvalidControlInput, optionalNumber, optionalString } from './control-input.js';
import type { PlantChargeInput } from './stripe/stripe-statement.js';
import type { AsaasMovementType, PlantAsaasPaymentInput } from './asaas/asaas-engine.js';
import { readBody, requestUrl, sendJson } from './http-io.js';
import type { IntentStatus } from './stripe/payment-intent.js';
import type { RefundStatus } from './stripe/refund.js';
import type { Simulator } from './simulator.js';
import type { StripeEventType } from './stripe/stripe-events.js';
import type { AsaasEventType } from './asaas/asaas-events.js';
import type { AsaasPaymentStatus } from './asaas/asaas-payment.js';

const STATUS_PATH = /^\/_sim\/intents\/([^/]+)\/status$/;
const ASAAS_STATUS_PATH = /^\/_sim\/asaas\/payments\/([^/]+)\/status$/;
const ASAAS_REFUND_PATH = /^\/_sim\/asaas\/payments\/([^/]+)\/refunds\/(\d+)$/;
const ASAAS_MOVEMENT_PATH = /^\/_sim\/asaas\/payments\/([^/]+)\/movements$/;
const ASAAS_MOVEMENT_TYPES = ['CHARGEBACK', 'CHARGEBACK_REVERSAL', 'PAYMENT_CUSTODY_BLOCK', 'PAYMENT_CUSTODY_BLOCK_REVERSAL'];
const REFUND_STATUS_PATH = /^\/_sim\/refunds\/([^/]+)\/status$/;
const MOVEMENT_PATH = /^\/_sim\/intents\/([^/]+)\/(refund|dispute)$/;

/** The control API: a thin JSON adapter over the `Simulator` methods, on its own port. */
export function createControlRouter(simulator: Simulator): RequestListener {
  return (request, response) => {
    route(simulator, request, response).catch((error: unknown) => {
      const status = error instanceof InvalidControlInput ? 400 : 500;
      sendJson(response, status, { error: error instanceof Error ? error.message : String(error) });
    });
  };
}

async function route(simulator: Simulator, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = requestUrl(request);
  const query = (name: string) => url.searchParams.get(name) ?? undefined;
  const ok = (body: unknown) => sendJson(response, 200, body);
  const endpoint = `${request.method ?? 'GET'} ${url.pathname}`;

  if (request.method === 'GET') {
    if (endpoint === 'GET /_sim/stats') return ok(simulator.stats());
    if (endpoint === 'GET /_sim/arrivals') return ok(simulator.queryArrivals());
    if (endpoint === 'GET /_sim/requests') return ok(simulator.requests(query('idempotencyKey')));
    if (endpoint === 'GET /_sim/intents') {
      return ok(simulator.intents({ attemptId: query('attemptId'), customerId: query('customerId') }));
    }
    if (endpoint === 'GET /_sim/refunds') {
      return ok(simulator.refunds({ paymentIntentId: query('paymentIntentId'), refundAttemptId: query('refundAttemptId') }));
    }
    if (endpoint === 'GET /_sim/config') return ok(simulator.config());
    if (endpoint === 'GET /_sim/faults') return ok(simulator.pendingFaults());
    if (endpoint === 'GET /_sim/webhooks') return ok(simulator.webhookDeliveries());
    if (endpoint === 'GET /_sim/asaas/payments') {
      return ok(simulator.asaasPayments({ externalReference: query('externalReference'), customer: query('customer') }));
    }
    if (endpoint === 'GET /_sim/asaas/requests') return ok(simulator.asaasRequests(query('externalReference')));
    if (endpoint === 'GET /_sim/asaas/webhooks') return ok(simulator.asaasWebhookDeliveries());
    return sendJson(response, 404, { error: `no control route ${endpoint}` });
  }

  const body = await readJson(request);
  const statusPath = STATUS_PATH.exec(url.pathname);
  if (request.method === 'POST' && statusPath) {
    return ok(simulator.setIntentStatus(decodeURIComponent(statusPath[1]), body.status as IntentStatus));
  }
  const asaasStatusPath = ASAAS_STATUS_PATH.exec(url.pathname);
  if (request.method === 'POST' && asaasStatusPath) {
    return ok(simulator.setAsaasPaymentStatus(decodeURIComponent(asaasStatusPath[1]), body.status as AsaasPaymentStatus));
  }
  const asaasRefundPath = ASAAS_REFUND_PATH.exec(url.pathname);
  if (request.method === 'POST' && asaasRefundPath) {
    const [paymentId, index] = [decodeURIComponent(asaasRefundPath[1]), Number(asaasRefundPath[2])];
    return ok(simulator.settleAsaasRefund(paymentId, index, body.status as 'DONE' | 'CANCELLED', optionalString(body.bookedOn, 'bookedOn')));
  }
  const asaasMovementPath = ASAAS_MOVEMENT_PATH.exec(url.pathname);
  if (request.method === 'POST' && asaasMovementPath) {
    if (!ASAAS_MOVEMENT_TYPES.includes(body.type as string)) throw new InvalidControlInput(`type must be one of ${ASAAS_MOVEMENT_TYPES.join(', ')}`);
    return ok(simulator.bookAsaasMovement(decodeURIComponent(asaasMovementPath[1]), body.type as AsaasMovementType, optionalString(body.on, 'on')));
  }
  const refundStatusPath = REFUND_STATUS_PATH.exec(url.pathname);
  if (request.method === 'POST' && refundStatusPath) {
    return ok(simulator.setRefundStatus(decodeURIComponent(refundStatusPath[1]), body.status as RefundStatus, optionalNumber(body.created, 'created')));
  }
  const movementPath = MOVEMENT_PATH.exec(url.pathname);
  if (request.method === 'POST' && movementPath) {
    const input = { amount: optionalNumber(body.amount, 'amount'), created: optionalNumber(body.created, 'created') };
    return ok(simulator.addMovement(decodeURIComponent(movementPath[1]), movementPath[2] as 'refund' | 'dispute', input));
  }
  switch (endpoint) {
    case 'POST /_sim/asaas/webhooks/send':
      return ok(
        await simulator.sendAsaasWebhook({
          event: body.event as AsaasEventType,
          paymentId: optionalString(body.paymentId, 'paymentId') ?? '',
          forged: body.forged === true,
        }),
      );
    case 'POST /_sim/asaas/statement/payments':
      if (!Array.isArray(body.payments)) throw new InvalidControlInput('payments must be an array');
      return ok(simulator.plantAsaasPayments(body.payments as PlantAsaasPaymentInput[]));
    case 'POST /_sim/statement/charges':
      if (!Array.isArray(body.charges)) throw new InvalidControlInput('charges must be an array');
      return ok(simulator.plantCharges(body.charges as PlantChargeInput[]));
    case 'POST /_sim/idempotency/prune':
      return ok(simulator.pruneIdempotencyKeys());
    case 'POST /_sim/reset':
      await simulator.reset();
      return ok({ reset: true });
    case 'POST /_sim/config':
      return ok(simulator.configure(body));
    case 'POST /_sim/faults':
      simulator.setFaults(body);
      return ok({ rules: simulator.pendingFaults() });
    case 'POST /_sim/listener':
      if (typeof body.accepting !== 'boolean') throw new InvalidControlInput('accepting must be a boolean');
      await (body.accepting ? simulator.acceptConnections() : simulator.refuseConnections());
      return ok({ accepting: body.accepting });
    case 'POST /_sim/webhooks/send':
      return ok(
        await simulator.sendWebhook({
          eventType: body.eventType as StripeEventType,
          intentId: optionalString(body.intentId, 'intentId') ?? '',
        }),
      );
    case 'POST /_sim/webhooks/forge':
      return ok(
        await simulator.forgeWebhook({
          type: body.type as StripeEventType,
          attemptId: optionalString(body.attemptId, 'attemptId'),
        }),
      );
    default:
      return sendJson(response, 404, { error: `no control route ${endpoint}` });
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(request);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidControlInput('the body is not valid JSON');
  }
  if (!isRecord(parsed)) throw new InvalidControlInput('the body must be a JSON object');
  return parsed;
}
