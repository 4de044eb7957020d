import type { GatewayCallResult, ProviderError } from '../gateway-call.result.js';
import type { ProviderCharge } from '../payment-gateway.port.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { parseJson } from './stripe-intent.response.js';
import { mapStripeRefundStatus } from './stripe-refund-status.js';

/** The Refund fields the adapter reads. */
export interface StripeRefundView {
  id: string;
  status: unknown;
  amount: number;
  currency: string;
  metadata: Record<string, unknown>;
}

const MAX_TEXT_BODY = 4096;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readRefund(value: unknown): StripeRefundView | null {
  if (!isRecord(value) || typeof value.id !== 'string' || value.object !== 'refund') return null;
  return {
    id: value.id,
    status: value.status,
    amount: typeof value.amount === 'number' ? value.amount : Number.NaN,
    currency: typeof value.currency === 'string' ? value.currency : '',
    metadata: isRecord(value.metadata) ? value.metadata : {},
  };
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

function readError(body: unknown): ProviderError | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { type: text(body.error.type), code: text(body.error.code), declineCode: text(body.error.decline_code), message: text(body.error.message) };
}

/** Reads a refund create call's result into the same shape as a charge's, for the one classifier. */
export function toCreateRefundResult(http: ProviderHttpResult): GatewayCallResult {
  if (http.kind !== 'response') return http;
  const json = parseJson(http.body);
  const replayed = http.headers['idempotent-replayed'] === 'true';
  const refund = json === undefined ? null : readRefund(json);
  return {
    kind: 'response',
    httpStatus: http.status,
    durationMs: http.durationMs,
    replayed,
    providerChargeId: refund?.id ?? null,
    providerOutcome: refund ? mapStripeRefundStatus(refund.status) : null,
    error: json === undefined ? null : readError(json),
    body: json === undefined ? http.body.slice(0, MAX_TEXT_BODY) : json,
  };
}
