import { isRecord } from '@app/common';
import type { CreatePaymentParams } from './asaas-payment.js';

export interface AsaasErrorBody {
  errors: Array<{ code: string; description: string }>;
}

export const asaasError = (code: string, description: string): AsaasErrorBody => ({ errors: [{ code, description }] });

const BILLING_TYPES = ['BOLETO', 'CREDIT_CARD', 'PIX', 'UNDEFINED'];
/** Asaas's smallest charge for Pix and boleto is R$ 5,00. */
const MINIMUM_VALUE = 5;

/** Validates `POST /v3/payments` as Asaas does before creating anything (a 400 creates nothing). */
export function readCreatePaymentParams(rawBody: string): CreatePaymentParams | { error: AsaasErrorBody } {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { error: asaasError('invalid_object', 'O corpo da requisição não é um JSON válido.') };
  }
  if (!isRecord(body)) return { error: asaasError('invalid_object', 'O corpo da requisição deve ser um objeto.') };
  if (typeof body.customer !== 'string' || body.customer === '') return { error: asaasError('invalid_customer', 'Informe o cliente.') };
  if (typeof body.billingType !== 'string' || !BILLING_TYPES.includes(body.billingType)) {
    return { error: asaasError('invalid_billingType', 'Informe a forma de pagamento.') };
  }
  if (typeof body.value !== 'number' || !Number.isFinite(body.value)) return { error: asaasError('invalid_value', 'Informe o valor da cobrança.') };
  if (body.value < MINIMUM_VALUE) return { error: asaasError('invalid_value', 'O valor da cobrança deve ser maior ou igual a R$ 5,00.') };
  if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate)) {
    return { error: asaasError('invalid_dueDate', 'Informe a data de vencimento.') };
  }
  // Card data (a token, or the card itself) charges the card in this call, and Asaas wants the buyer's IP with it;
  // without any, a CREDIT_CARD payment is an invoice the customer pays on invoiceUrl.
  const cardCharged = body.billingType === 'CREDIT_CARD' && (typeof body.creditCardToken === 'string' || isRecord(body.creditCard));
  if (cardCharged && (typeof body.remoteIp !== 'string' || body.remoteIp === '')) return { error: asaasError('invalid_remoteIp', 'Informe o IP do cliente (remoteIp).') };
  return {
    customer: body.customer,
    cardCharged,
    billingType: body.billingType,
    value: body.value,
    dueDate: body.dueDate,
    description: typeof body.description === 'string' ? body.description : null,
    externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
  };
}
