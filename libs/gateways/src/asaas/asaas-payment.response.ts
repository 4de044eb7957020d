import { isRecord } from '@app/common';
import type { GatewayCallResult, ProviderError } from '../gateway-call.result.js';
import { toCreateCallResult } from '../http/create-response.reading.js';
import type { ProviderCharge } from '../provider-lookup.result.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { reaisToCents } from './asaas-amount.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';

/** The payment fields the adapter reads; the whole object is kept as evidence. */
export interface AsaasPaymentView {
  id: string;
  status: unknown;
  deleted: boolean;
  /** NaN when `value` is not an amount in reais with at most two decimals. */
  amountCents: number;
  externalReference: string | null;
  billingType: string | null;
  /** YYYY-MM-DD, or null when absent or not a date. */
  dueDate: string | null;
}

/**
 * A boleto or Pix waits for its payer until it is paid, cancelled or past its due date; so does a card charge
 * created without a card token: Asaas answers it PENDING and the customer pays on its invoiceUrl (a card charged
 * with a token is CONFIRMED at once, or refused with a 400 and nothing saved).
 */
const WAITS_FOR_PAYER = new Set(['BOLETO', 'PIX', 'UNDEFINED', 'CREDIT_CARD']);
const AWAITING_STATUSES = new Set(['PENDING', 'OVERDUE']);

export function readPayment(value: unknown): AsaasPaymentView | null {
  if (!isRecord(value) || typeof value.id !== 'string' || !value.id.startsWith('pay_')) return null;
  return {
    id: value.id,
    status: value.status,
    deleted: value.deleted === true,
    amountCents: reaisToCents(value.value),
    externalReference: typeof value.externalReference === 'string' ? value.externalReference : null,
    billingType: typeof value.billingType === 'string' ? value.billingType : null,
    dueDate: typeof value.dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.dueDate) ? value.dueDate : null,
  };
}

/** The due date of a payment still waiting for its payer, else null. */
function payableUntil(payment: AsaasPaymentView): string | null {
  const waiting = !payment.deleted && typeof payment.status === 'string' && AWAITING_STATUSES.has(payment.status);
  return waiting && payment.billingType !== null && WAITS_FOR_PAYER.has(payment.billingType) ? payment.dueDate : null;
}

export function toAsaasProviderCharge(payment: AsaasPaymentView, raw: unknown): ProviderCharge {
  return {
    providerChargeId: payment.id,
    // A status we do not recognise must not resolve anything: treat it as still in progress.
    outcome: mapAsaasPaymentStatus(payment.status, payment.deleted) ?? 'pending',
    amountCents: payment.amountCents,
    // Asaas only moves reais; the payment object carries no currency.
    currency: 'brl',
    attemptId: payment.externalReference,
    raw,
    payableUntil: payableUntil(payment),
  };
}

/** Asaas errors are `{errors:[{code, description}]}`; the first one is kept. */
export function readAsaasError(body: unknown): ProviderError | null {
  if (!isRecord(body) || !Array.isArray(body.errors) || body.errors.length === 0) return null;
  const first: unknown = body.errors[0];
  if (!isRecord(first)) return null;
  return {
    code: typeof first.code === 'string' ? first.code : undefined,
    message: typeof first.description === 'string' ? first.description : undefined,
  };
}

/** Reads a create call's result. Asaas never replays (there is no key to replay by). */
export function toAsaasCreateResult(http: ProviderHttpResult): GatewayCallResult {
  return toCreateCallResult(http, (json) => {
    const payment = readPayment(json);
    return {
      providerChargeId: payment?.id ?? null,
      providerOutcome: payment ? mapAsaasPaymentStatus(payment.status, payment.deleted) : null,
      error: readAsaasError(json),
    };
  });
}
