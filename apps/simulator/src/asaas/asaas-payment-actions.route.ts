import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '@app/common';
import { reaisToCents } from '@app/gateways';
import { asaasError } from './asaas-create-params.js';
import type { AsaasEngine } from './asaas-engine.js';
import type { AsaasPayment } from './asaas-payment.js';
import { applyGateFault, type Reply } from '../gate-fault.reply.js';
import { readBody, sendJson } from '../http-io.js';

const notFound = () => asaasError('not_found', 'Cobrança não encontrada.');

/**
 * The gate faults of a create, for a call that changes an existing payment: matched on its customer and its
 * `externalReference`, so a test can refuse one payment's cancel or refund. True when a fault answered.
 */
function gateFault(engine: AsaasEngine, payment: AsaasPayment, response: ServerResponse, reply: Reply): boolean {
  const fault = engine.faults.takeGateFault({ customerId: payment.customer, attemptId: payment.externalReference, idempotencyKey: null });
  if (!fault) return false;
  engine.stats.countFault(fault);
  applyGateFault(fault, { hangs: engine.hangs, hangMs: engine.settings.hangMs }, response, reply, {
    rateLimited: asaasError('rate_limit_exceeded', 'Limite de requisições atingido.'),
    inProgress: asaasError('conflict', 'A requisição conflita com outra em andamento.'),
  });
  return true;
}

/** `DELETE /v3/payments/{id}`: `{deleted: true, id}`; a payment already paid (or removed) cannot be removed. */
export function deleteAsaasPaymentRoute(engine: AsaasEngine, paymentId: string, response: ServerResponse): void {
  engine.stats.countAsaasRequest('deletes');
  const reply: Reply = (status, body) => sendJson(response, status, body);
  const payment = engine.paymentStore.get(paymentId);
  if (!payment || payment.deleted) return reply(404, notFound());
  if (gateFault(engine, payment, response, reply)) return;
  if (!engine.deletePayment(payment)) return reply(400, asaasError('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser removidas.'));
  reply(200, { deleted: true, id: payment.id });
}

const REFUNDABLE = ['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH'];

/**
 * `POST /v3/payments/{id}/refund {value?, description?}`: no idempotency key, so every request that executes is
 * one more refund. The same fault plan as a create (matched on the payment's customer); `value` defaults to what
 * is left; more than that, or a payment not received, is a 400 that refunds nothing. Answers the payment.
 */
export async function refundAsaasPaymentRoute(engine: AsaasEngine, paymentId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  engine.stats.countAsaasRequest('refunds');
  const reply: Reply = (status, body) => sendJson(response, status, body);
  const rawBody = await readBody(request);
  const payment = engine.paymentStore.get(paymentId);
  if (!payment || payment.deleted) return reply(404, notFound());
  if (gateFault(engine, payment, response, reply)) return;
  const params = readRefundParams(rawBody);
  if ('error' in params) return reply(400, params.error);
  const left = engine.refundableCents(payment);
  if (!REFUNDABLE.includes(payment.status) || left <= 0) return reply(400, asaasError('invalid_action', 'Não é possível estornar esta cobrança.'));
  const valueCents = params.valueCents ?? left;
  if (valueCents > left) return reply(400, asaasError('invalid_value', 'O valor do estorno excede o valor disponível da cobrança.'));

  const fault = engine.faults.takeExecutionFault({ customerId: payment.customer, attemptId: payment.externalReference, idempotencyKey: null });
  if (fault) engine.stats.countFault(fault);
  if (fault === '500_before_create') return reply(500, asaasError('internal_error', 'Erro interno.'));
  if (fault === 'decline') return reply(400, asaasError('invalid_action', 'Saldo insuficiente para estornar a cobrança.'));
  engine.refundPayment(payment, valueCents, params.description);
  if (fault === 'hang_after_create' || fault === 'create_late') return engine.hangs.hold(response, engine.settings.hangMs);
  if (fault === '500_after_create') return reply(500, asaasError('internal_error', 'Erro interno.'));
  reply(200, payment);
}

function readRefundParams(rawBody: string): { valueCents: number | null; description: string | null } | { error: unknown } {
  let body: unknown;
  try {
    body = rawBody.trim() === '' ? {} : JSON.parse(rawBody);
  } catch {
    return { error: asaasError('invalid_object', 'O corpo da requisição não é um JSON válido.') };
  }
  if (!isRecord(body)) return { error: asaasError('invalid_object', 'O corpo da requisição deve ser um objeto.') };
  const valueCents = body.value === undefined ? null : typeof body.value === 'number' ? reaisToCents(body.value) : Number.NaN;
  if (valueCents !== null && !(valueCents > 0)) return { error: asaasError('invalid_value', 'Informe um valor de estorno válido.') };
  return {
    valueCents,
    description: typeof body.description === 'string' ? body.description : null,
  };
}
