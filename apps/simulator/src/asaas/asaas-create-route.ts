import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { asaasError, readCreatePaymentParams } from './asaas-create-params.js';
import type { AsaasEngine } from './asaas-engine.js';
import type { CreateRequestFacts } from '../fault-plan.js';
import { applyGateFault, type Reply } from '../gate-fault.reply.js';
import { readBody, sendJson } from '../http-io.js';

const serverError = () => asaasError('internal_error', 'Ocorreu um erro interno. Tente novamente mais tarde.');

/**
 * `POST /v3/payments`. The same fault plan as Stripe's create: gate faults (refused before anything
 * runs), validation (a 400 creates nothing), then execution faults. Unlike Stripe there is no key and
 * nothing is stored for a replay: every request that gets past the gate and validation creates a
 * payment, which is exactly why a blind resend to Asaas is a double charge.
 */
export async function createAsaasPaymentRoute(engine: AsaasEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const receivedAtMs = Date.now();
  engine.stats.countAsaasRequest('creates');
  const rawBody = await readBody(request);
  const params = readCreatePaymentParams(rawBody);
  const facts: CreateRequestFacts = {
    customerId: 'error' in params ? null : params.customer,
    attemptId: 'error' in params ? null : params.externalReference,
    idempotencyKey: null,
  };
  engine.requestLog.record(facts.attemptId, rawBody, request.headers, receivedAtMs);
  const reply: Reply = (status, body) => sendJson(response, status, body);

  const gateFault = engine.faults.takeGateFault(facts);
  if (gateFault) {
    engine.stats.countFault(gateFault);
    return applyGateFault(gateFault, { hangs: engine.hangs, hangMs: engine.settings.hangMs }, response, reply, {
      rateLimited: asaasError('rate_limit_exceeded', 'Limite de requisições atingido.'),
      inProgress: asaasError('conflict', 'A requisição conflita com outra em andamento.'),
    });
  }
  if ('error' in params) return reply(400, params.error);
  if (engine.settings.createLatencyMs > 0) await sleep(engine.settings.createLatencyMs);

  const fault = engine.faults.takeExecutionFault(facts);
  if (fault) engine.stats.countFault(fault);
  if (fault === '500_before_create') return reply(500, serverError());
  if (fault === 'create_late') {
    // Asaas holding a request past our read timeout and only then creating the payment: it appears after
    // the client gave up (and after any grace it allowed).
    engine.hangs.hold(response, engine.settings.hangMs);
    engine.hangs.defer(engine.settings.hangMs, () => engine.createPayment(params));
    return;
  }
  const declined = fault === 'decline' || (params.cardCharged && engine.settings.declineCustomers.includes(params.customer));
  // A refused card creates nothing at Asaas: the 400 names the card.
  if (declined) return reply(400, asaasError('invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.'));
  const payment = engine.createPayment(params);
  if (fault === 'hang_after_create') return engine.hangs.hold(response, engine.settings.hangMs);
  if (fault === '500_after_create') return reply(500, serverError());
  reply(200, payment);
}
