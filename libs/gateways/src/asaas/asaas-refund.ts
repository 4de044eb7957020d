import { isRecord, parseJson } from '@app/common';
import type { GatewayCallResult, ProviderOutcome } from '../gateway-call.result.js';
import { toCreateCallResult } from '../http/create-response.reading.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import type { ProviderCharge } from '../provider-lookup.result.js';
import type { RefundRequest } from '../refund-gateway.port.js';
import { centsToReais, reaisToCents } from './asaas-amount.js';
import { readAsaasError, readPayment } from './asaas-payment.response.js';

/**
 * Asaas refunds (`POST /v3/payments/{id}/refund {value, description}`) have no id and no reference field: the
 * refund attempt's id travels in `description`, and a refund is found again among the payment's `refunds[]`.
 */
const DESCRIPTION_PREFIX = 'charge-once refund ';

const OUTCOME_BY_REFUND_STATUS: Record<string, ProviderOutcome> = { DONE: 'succeeded', PENDING: 'pending', CANCELLED: 'failed' };

/**
 * The stored payload: the refunded payment's id, a newline, then the exact JSON body sent (fixed key order,
 * `value` as exact decimal text). The path needs the payment, and the body is resent byte for byte.
 */
export function encodeAsaasRefund(request: RefundRequest): string {
  const body = `{"value":${centsToReais(request.amountCents)},"description":${JSON.stringify(`${DESCRIPTION_PREFIX}${request.attemptId}`)}}`;
  return `${request.providerChargeId}\n${body}`;
}

export function decodeAsaasRefund(payload: string): { paymentId: string; body: string; attemptId: string | null } {
  const newline = payload.indexOf('\n');
  if (newline <= 0) throw new Error('an asaas refund payload starts with the payment id and a newline');
  const body = payload.slice(newline + 1);
  const parsed = parseJson(body);
  return { paymentId: payload.slice(0, newline), body, attemptId: refundAttemptIn(isRecord(parsed) ? parsed.description : null) };
}

/** Our refund attempt's id in a refund's description; null for a refund we did not ask for (made in Asaas's panel, say). */
export function refundAttemptIn(description: unknown): string | null {
  return typeof description === 'string' && description.startsWith(DESCRIPTION_PREFIX) ? description.slice(DESCRIPTION_PREFIX.length) : null;
}

/** Asaas gives a refund no id: ours is named by its payment and our attempt, unique per attempt. */
export function asaasRefundId(paymentId: string, attemptId: string): string {
  return `${paymentId}:refund:${attemptId}`;
}

/**
 * Our attempt's refunds in a payment object, or null when the body is not a payment with a readable refund list
 * (absent or null means none yet: Asaas adds `refunds` once a payment has one).
 */
export function asaasRefundsOf(raw: unknown, attemptId: string): ProviderCharge[] | null {
  const payment = readPayment(raw);
  if (!payment || !isRecord(raw)) return null;
  const refunds: unknown = raw.refunds ?? [];
  if (!Array.isArray(refunds)) return null;
  return refunds.flatMap((refund: unknown) => {
    if (!isRecord(refund) || refund.description !== `${DESCRIPTION_PREFIX}${attemptId}`) return [];
    return [{
      providerChargeId: asaasRefundId(payment.id, attemptId),
      // A status we do not know resolves nothing.
      outcome: (typeof refund.status === 'string' ? OUTCOME_BY_REFUND_STATUS[refund.status] : undefined) ?? 'pending',
      amountCents: reaisToCents(refund.value),
      currency: 'brl',
      attemptId,
      raw: refund,
    }];
  });
}

/**
 * A refund call's result: the payment comes back, and our refund is the one with our description. A 2xx that
 * does not show it is created-not-final: only a query can tell, and nothing is resent.
 */
export function toAsaasRefundResult(http: ProviderHttpResult, attemptId: string | null): GatewayCallResult {
  return toCreateCallResult(http, (json) => {
    const ours = attemptId ? (asaasRefundsOf(json, attemptId) ?? []) : [];
    return {
      providerChargeId: ours.length === 1 ? ours[0].providerChargeId : null,
      providerOutcome: ours.length === 1 ? ours[0].outcome : null,
      error: readAsaasError(json),
    };
  });
}
