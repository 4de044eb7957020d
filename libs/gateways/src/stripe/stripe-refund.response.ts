import type { GatewayCallResult } from '../gateway-call.result.js';
import { toCreateCallResult } from '../http/create-response.reading.js';
import { readStripeError, readStripeObject } from './stripe-intent.response.js';
import type { ProviderCharge } from '../provider-lookup.result.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { mapStripeRefundStatus } from './stripe-refund-status.js';

/** The Refund fields the adapter reads. */
export interface StripeRefundView {
  id: string;
  status: unknown;
  amount: number;
  currency: string;
  metadata: Record<string, unknown>;
}

export function readRefund(value: unknown): StripeRefundView | null {
  const object = readStripeObject(value, 'refund');
  if (!object) return null;
  const { raw: _raw, ...refund } = object;
  return refund;
}

/** A refund as a found provider record; `providerChargeId` carries the refund's id (`re_...`). */
export function refundAsProviderRecord(refund: StripeRefundView, raw: unknown): ProviderCharge {
  const attemptId = refund.metadata.refund_attempt_id;
  return {
    providerChargeId: refund.id,
    outcome: mapStripeRefundStatus(refund.status) ?? 'pending',
    amountCents: refund.amount,
    currency: refund.currency,
    attemptId: typeof attemptId === 'string' ? attemptId : null,
    raw,
  };
}

export function matchingRefunds(data: unknown, attemptId: string): ProviderCharge[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((raw: unknown) => {
    const refund = readRefund(raw);
    return refund && refund.metadata.refund_attempt_id === attemptId ? [refundAsProviderRecord(refund, raw)] : [];
  });
}

/** Reads a refund create call's result into the same shape as a charge's, for the one classifier. */
export function toCreateRefundResult(http: ProviderHttpResult): GatewayCallResult {
  return toCreateCallResult(http, (json, response) => {
    const refund = readRefund(json);
    return {
      replayed: response.headers['idempotent-replayed'] === 'true',
      providerChargeId: refund?.id ?? null,
      providerOutcome: refund ? mapStripeRefundStatus(refund.status) : null,
      error: readStripeError(json),
    };
  });
}
