import type { ServerResponse } from 'node:http';
import { asaasError } from './asaas-create-params.js';
import type { AsaasEngine } from './asaas-engine.js';
import type { AsaasPayment } from './asaas-payment.js';
import { applyGateFault, type Reply } from './gate-fault.reply.js';
import { sendJson } from './http-io.js';

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
  const payment = engine.ledger.get(paymentId);
  if (!payment || payment.deleted) return reply(404, notFound());
  if (gateFault(engine, payment, response, reply)) return;
  if (!engine.deletePayment(payment)) return reply(400, asaasError('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser removidas.'));
  reply(200, { deleted: true, id: payment.id });
}
