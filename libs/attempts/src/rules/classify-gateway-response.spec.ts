import type { GatewayCallResult, ProviderError, ProviderOutcome } from '@app/gateways';
import { describe, expect, it } from 'vitest';
import { classifyGatewayResponse, type AttemptOutcome } from './classify-gateway-response.js';

function response(
  httpStatus: number,
  fields: { providerOutcome?: ProviderOutcome | null; error?: ProviderError | null; providerChargeId?: string | null; replayed?: boolean } = {},
): GatewayCallResult {
  return {
    kind: 'response',
    httpStatus,
    durationMs: 40,
    replayed: fields.replayed ?? false,
    providerChargeId: fields.providerChargeId ?? null,
    providerOutcome: fields.providerOutcome ?? null,
    error: fields.error ?? null,
    body: {},
  };
}

const connectFailed: GatewayCallResult = { kind: 'connect_failed', errorCode: 'ECONNREFUSED', message: 'refused', durationMs: 3 };
const readTimeout: GatewayCallResult = { kind: 'no_response', errorCode: 'ETIMEDOUT', message: 'read timeout', durationMs: 15_000 };
const connectionReset: GatewayCallResult = { kind: 'no_response', errorCode: 'ECONNRESET', message: 'socket hang up', durationMs: 900 };
const pi = 'pi_123';
const idempotencyError: ProviderError = { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters' };

type Expected = Pick<AttemptOutcome, 'status' | 'reason'> & { providerChargeId?: string | null };

// One row per case of DESIGN.md section 3, plus the statuses it leaves implicit.
const table: [string, GatewayCallResult, Expected][] = [
  ['could not connect: nothing was sent, resend later with the same key', connectFailed, { status: 'pending', reason: 'connect_failed' }],
  ['read timeout after sending: the charge may exist', readTimeout, { status: 'unknown', reason: 'no_response' }],
  ['connection reset after sending: the charge may exist', connectionReset, { status: 'unknown', reason: 'no_response' }],
  ['201 with a succeeded charge', response(201, { providerOutcome: 'succeeded', providerChargeId: pi }), { status: 'succeeded', reason: 'created', providerChargeId: pi }],
  ['200 replay of a succeeded charge', response(200, { providerOutcome: 'succeeded', providerChargeId: pi, replayed: true }), { status: 'succeeded', reason: 'created', providerChargeId: pi }],
  ['200 with a charge the provider already failed', response(200, { providerOutcome: 'failed', providerChargeId: pi }), { status: 'failed', reason: 'provider_failed', providerChargeId: pi }],
  ['200 with a charge still pending (3-D Secure, processing)', response(200, { providerOutcome: 'pending', providerChargeId: pi }), { status: 'unknown', reason: 'created_not_final', providerChargeId: pi }],
  ['200 whose body named no status', response(200, { providerChargeId: pi }), { status: 'unknown', reason: 'created_not_final', providerChargeId: pi }],
  ['400 validation error', response(400, { error: { type: 'invalid_request_error', code: 'parameter_missing' } }), { status: 'failed', reason: 'validation_error' }],
  ['400 idempotency_error: payload changed under the key, the first request may have charged', response(400, { error: idempotencyError }), { status: 'unknown', reason: 'idempotency_mismatch' }],
  ['404 idempotency_error (stripe-node maps it too)', response(404, { error: idempotencyError }), { status: 'unknown', reason: 'idempotency_mismatch' }],
  ['400 rate_limit code: nothing processed', response(400, { error: { type: 'invalid_request_error', code: 'rate_limit' } }), { status: 'pending', reason: 'rate_limited' }],
  // 401/403: the provider refused us before doing anything; resending the same key cannot help until
  // the configuration is fixed, and a later attempt is safe because nothing was created.
  ['401 bad credentials: nothing was created', response(401, { error: { type: 'authentication_error' } }), { status: 'failed', reason: 'authentication_error' }],
  ['402 card declined, keeping the declined payment intent', response(402, { error: { type: 'card_error', declineCode: 'insufficient_funds' }, providerChargeId: pi }), { status: 'failed', reason: 'declined', providerChargeId: pi }],
  ['403 permission denied: nothing was created', response(403), { status: 'failed', reason: 'permission_error' }],
  // 404: an unknown customer, payment method or route; the create never ran.
  ['404 resource not found: nothing was created', response(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } }), { status: 'failed', reason: 'not_found' }],
  ['422 unprocessable request', response(422), { status: 'failed', reason: 'validation_error' }],
  ['409 same key already in flight', response(409, { error: { code: 'idempotency_key_in_use' } }), { status: 'unknown', reason: 'idempotency_conflict' }],
  ['429 rate limited: nothing processed, resend with backoff', response(429), { status: 'pending', reason: 'rate_limited' }],
  ['500: the provider may have created it before failing', response(500), { status: 'unknown', reason: 'server_error' }],
  ['502 bad gateway', response(502), { status: 'unknown', reason: 'server_error' }],
  ['503 unavailable', response(503), { status: 'unknown', reason: 'server_error' }],
  ['504 gateway timeout', response(504), { status: 'unknown', reason: 'server_error' }],
  ['599 upper edge of 5xx', response(599), { status: 'unknown', reason: 'server_error' }],
  ['408 not in the definitive list: cannot prove nothing was created', response(408), { status: 'unknown', reason: 'unexpected_status' }],
  ['424 external dependency failed mid-request', response(424), { status: 'unknown', reason: 'unexpected_status' }],
  ['100 informational status', response(100), { status: 'unknown', reason: 'unexpected_status' }],
  ['302 redirect', response(302), { status: 'unknown', reason: 'unexpected_status' }],
  ['600 out of range', response(600), { status: 'unknown', reason: 'unexpected_status' }],
];

const e2e = 'E09089356202612030000abcd0000001';
const idEnvioUsed: ProviderError = { code: 'id_envio_duplicado', message: 'O id de envio informado já foi utilizado em outro pagamento' };

// The same key and payload sent again (an earlier request may have moved the money behind a lost answer).
const resendTable: [string, GatewayCallResult, Expected][] = [
  ['resend answered 409 id_envio_duplicado: the first may have executed', response(409, { error: idEnvioUsed }), { status: 'unknown', reason: 'idempotency_conflict' }],
  ['resend answered 400 id_envio_duplicado: the reused id refused, not the transfer', response(400, { error: idEnvioUsed }), { status: 'unknown', reason: 'resend_refused' }],
  ['resend answered 400 with a validation error: this request refused, the first may have executed', response(400, { error: { code: 'chave_invalida' } }), { status: 'unknown', reason: 'resend_refused' }],
  ['resend answered 422 pagamento_negado: the fraud check may have refused the duplicate', response(422, { error: { code: 'pagamento_negado' } }), { status: 'unknown', reason: 'resend_refused' }],
  ['resend answered 422 whose body shows the transfer refused (NAO_REALIZADO)', response(422, { providerOutcome: 'failed', providerChargeId: e2e }), { status: 'failed', reason: 'validation_error', providerChargeId: e2e }],
  ['resend answered 400 whose body shows the transfer refused', response(400, { providerOutcome: 'failed' }), { status: 'failed', reason: 'validation_error' }],
  ['resend answered 200 with the transfer executed', response(200, { providerOutcome: 'succeeded', providerChargeId: e2e }), { status: 'succeeded', reason: 'created', providerChargeId: e2e }],
  ['resend answered 200 with the transfer refused', response(200, { providerOutcome: 'failed', providerChargeId: e2e }), { status: 'failed', reason: 'provider_failed', providerChargeId: e2e }],
  ['resend answered 429: nothing processed', response(429), { status: 'pending', reason: 'rate_limited' }],
  ['resend answered 400 rate_limit: nothing processed', response(400, { error: { code: 'rate_limit' } }), { status: 'pending', reason: 'rate_limited' }],
  ['resend answered 500', response(500), { status: 'unknown', reason: 'server_error' }],
];

describe('classifyGatewayResponse of a resend', () => {
  it.each(resendTable)('%s', (_name, result, expected) => {
    expect(classifyGatewayResponse(result, { resend: true })).toMatchObject({ ...expected, providerChargeId: expected.providerChargeId ?? null });
  });

  it('fails a first send refused with 400 or 422 as before: nothing under its key could have moved money', () => {
    expect(classifyGatewayResponse(response(400, { error: idEnvioUsed }), { resend: false })).toMatchObject({ status: 'failed', reason: 'validation_error' });
    expect(classifyGatewayResponse(response(422, { error: { code: 'pagamento_negado' } }))).toMatchObject({ status: 'failed', reason: 'validation_error' });
  });
});

describe('classifyGatewayResponse', () => {
  it.each(table)('%s', (_name, result, expected) => {
    const outcome = classifyGatewayResponse(result);
    expect(outcome).toMatchObject({ ...expected, providerChargeId: expected.providerChargeId ?? null });
  });

  it('never answers failed without a complete 4xx or 2xx response', () => {
    for (const [, result] of table) {
      const { status } = classifyGatewayResponse(result);
      if (status === 'failed') expect(result.kind === 'response' && result.httpStatus < 500).toBe(true);
    }
  });

  it('leaves an attempt pending (resent later) only when nothing reached the provider or it processed nothing', () => {
    for (const [, result] of table) {
      const { status, reason } = classifyGatewayResponse(result);
      expect(status === 'pending').toBe(reason === 'connect_failed' || reason === 'rate_limited');
    }
  });

  it('keeps the transport error as the attempt last error', () => {
    expect(classifyGatewayResponse(readTimeout).error).toEqual({ httpStatus: null, code: 'ETIMEDOUT', message: 'read timeout' });
  });

  it('keeps the provider error fields with the http status', () => {
    const declined = response(402, { error: { type: 'card_error', code: 'card_declined', declineCode: 'insufficient_funds' } });
    expect(classifyGatewayResponse(declined).error).toEqual({ httpStatus: 402, type: 'card_error', code: 'card_declined', declineCode: 'insufficient_funds' });
  });

  it('records no error for a clean success', () => {
    expect(classifyGatewayResponse(response(200, { providerOutcome: 'succeeded', providerChargeId: pi })).error).toBeNull();
  });
});
