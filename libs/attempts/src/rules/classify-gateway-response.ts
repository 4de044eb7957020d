import type { GatewayCallResult, ProviderError } from '@app/gateways';

/**
 * What one provider call means for its attempt (DESIGN.md section 3). Only the HTTP facts decide:
 * the same table serves every provider. When in doubt the answer is `unknown`, never `failed`:
 * `failed` lets a new attempt with a new key go out (a possible second charge), while `unknown`
 * only costs a query.
 */
export interface AttemptOutcome {
  /** `pending`: nothing was processed, resend later with the same key and payload. `unknown` is never resent, only queried. */
  status: 'succeeded' | 'failed' | 'unknown' | 'pending';
  reason: AttemptOutcomeReason;
  providerChargeId: string | null;
  error: AttemptError | null;
}

export type AttemptOutcomeReason =
  | 'created' | 'provider_failed' | 'created_not_final'
  | 'declined' | 'validation_error' | 'authentication_error' | 'permission_error' | 'not_found'
  | 'idempotency_mismatch' | 'idempotency_conflict' | 'resend_refused' | 'rate_limited' | 'server_error'
  | 'unexpected_status' | 'connect_failed' | 'no_response';

/**
 * Kept as the attempt's `last_error` (jsonb). A type literal rather than an interface so it stays
 * assignable to `Record<string, unknown>`.
 */
export type AttemptError = {
  /** Null when no response came back. */
  httpStatus: number | null;
} & { [K in keyof ProviderError]: ProviderError[K] };

/** 4xx statuses that prove the provider rejected the request without creating anything. */
const DEFINITIVE_REJECTIONS: Readonly<Record<number, AttemptOutcomeReason>> = {
  400: 'validation_error',
  401: 'authentication_error',
  402: 'declined',
  403: 'permission_error',
  404: 'not_found',
  422: 'validation_error',
};

/** How the call was made: `resend` when the same key and payload had already been sent before. */
export interface CallContext {
  resend: boolean;
}

/** Refusals that, answering a resend, may be the provider refusing the reused key (Efí's idEnvio), not the transfer. */
const RESEND_AMBIGUOUS = new Set([400, 422]);

export function classifyGatewayResponse(result: GatewayCallResult, context: CallContext = { resend: false }): AttemptOutcome {
  if (result.kind === 'connect_failed') {
    // Nothing reached the provider: resending the same key and bytes later is safe.
    return outcome('pending', 'connect_failed', null, transportError(result));
  }
  if (result.kind === 'no_response') {
    // The request may have arrived and created a charge: only a lookup can tell.
    return outcome('unknown', 'no_response', null, transportError(result));
  }

  const { httpStatus, providerChargeId } = result;
  const error: AttemptError = { httpStatus, ...result.error };
  if (httpStatus >= 200 && httpStatus < 300) {
    const detail = result.error ? error : null;
    if (result.providerOutcome === 'succeeded') return outcome('succeeded', 'created', providerChargeId, detail);
    if (result.providerOutcome === 'failed') return outcome('failed', 'provider_failed', providerChargeId, detail);
    // Created but not final (3-D Secure, processing, or a body we could not read): the charge exists,
    // so it must not be resent; resolution or a webhook will learn how it ended.
    return outcome('unknown', 'created_not_final', providerChargeId, detail);
  }
  // A payload changed under a key is our bug, not a decline: the first request with this key may
  // have created a charge, so failing the attempt (and opening a new key) could charge twice.
  // Stripe sends it as 400, and stripe-node also maps 404 with this type.
  if (httpStatus >= 400 && httpStatus < 500 && result.error?.type === 'idempotency_error') {
    return outcome('unknown', 'idempotency_mismatch', providerChargeId, error);
  }
  // Stripe may signal rate limiting as 400 `rate_limit`; like 429, nothing was processed.
  if (httpStatus === 429 || (httpStatus === 400 && result.error?.code === 'rate_limit')) {
    return outcome('pending', 'rate_limited', null, error);
  }
  // Another request with this key is in flight: it may be creating the charge right now.
  if (httpStatus === 409) return outcome('unknown', 'idempotency_conflict', providerChargeId, error);
  // A resend refused proves only that this request was refused: an earlier one under the same key may have moved
  // the money (a transfer executed behind a lost answer). Only a body showing the operation itself refused says
  // otherwise; anything else is unknown, settled by a lookup, never a failure that releases money gone.
  if (context.resend && RESEND_AMBIGUOUS.has(httpStatus) && result.providerOutcome !== 'failed') {
    return outcome('unknown', 'resend_refused', providerChargeId, error);
  }
  const rejection = DEFINITIVE_REJECTIONS[httpStatus];
  // A 402 decline keeps the provider's charge id: Stripe creates the payment intent before declining.
  if (rejection !== undefined) return outcome('failed', rejection, providerChargeId, error);
  // The provider may have created the charge before failing.
  if (httpStatus >= 500 && httpStatus < 600) return outcome('unknown', 'server_error', providerChargeId, error);
  // 1xx, 3xx and 4xx outside the list above (408, 424, ...): we cannot prove nothing was created.
  return outcome('unknown', 'unexpected_status', providerChargeId, error);
}

function outcome(
  status: AttemptOutcome['status'],
  reason: AttemptOutcomeReason,
  providerChargeId: string | null,
  error: AttemptError | null,
): AttemptOutcome {
  return { status, reason, providerChargeId, error };
}

function transportError(result: { errorCode: string; message: string }): AttemptError {
  return { httpStatus: null, code: result.errorCode, message: result.message };
}
