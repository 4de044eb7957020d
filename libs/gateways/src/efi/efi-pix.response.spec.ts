import { describe, expect, it } from 'vitest';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { readEfiError, toLookupResult, toSendPixResult } from './efi-pix.response.js';

const ID = '3f2a9c1d0b4e4c8a9d7e1a2b3c4d5e6f';
const response = (status: number, body: unknown): ProviderHttpResult => ({
  kind: 'response',
  status,
  headers: {},
  body: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 5,
});
const sent = (status: string, extra: Record<string, unknown> = {}) => ({ idEnvio: ID, endToEndId: 'E0908935620261202', valor: '12.34', status, ...extra });

describe('toSendPixResult', () => {
  it.each<[string, ProviderHttpResult, Record<string, unknown>]>([
    ['a new transfer in progress', response(201, sent('EM_PROCESSAMENTO')), { httpStatus: 201, providerOutcome: 'pending', providerChargeId: 'E0908935620261202', error: null }],
    ['a replayed transfer already paid', response(200, sent('REALIZADO')), { httpStatus: 200, providerOutcome: 'succeeded', replayed: false }],
    ['a transfer refused on the spot', response(201, sent('NAO_REALIZADO')), { providerOutcome: 'failed' }],
    ['a status we do not know', response(201, sent('AGENDADO')), { providerOutcome: null }],
    ['Efí error shape', response(409, { nome: 'id_envio_duplicado', mensagem: 'já utilizado' }), { httpStatus: 409, providerOutcome: null, providerChargeId: null, error: { code: 'id_envio_duplicado', message: 'já utilizado' } }],
    ['a 5xx whose body claims a status proves nothing', response(500, sent('REALIZADO')), { httpStatus: 500, providerOutcome: null }],
    ['a proxy page', response(502, '<html>bad gateway</html>'), { httpStatus: 502, body: '<html>bad gateway</html>', error: null }],
    // A refusal proves the transfer refused only when it shows this transfer NAO_REALIZADO.
    ['a 4xx showing this transfer refused', response(422, sent('NAO_REALIZADO')), { httpStatus: 422, providerOutcome: 'failed', providerChargeId: 'E0908935620261202' }],
    ['a 4xx showing another transfer refused proves nothing', response(422, sent('NAO_REALIZADO', { idEnvio: 'outro123' })), { providerOutcome: null, providerChargeId: null }],
    ['a 4xx showing this transfer executed proves no refusal', response(409, sent('REALIZADO')), { providerOutcome: null, providerChargeId: null }],
    ["Efí's documented 422 names no transfer", response(422, { nome: 'pagamento_negado', mensagem: 'Pagamento negado por análises' }), { providerOutcome: null, error: { code: 'pagamento_negado' } }],
  ])('%s', (_title, http, expected) => {
    expect(toSendPixResult(http, ID)).toMatchObject({ kind: 'response', ...expected });
  });

  it('passes transport failures through untouched', () => {
    const failure: ProviderHttpResult = { kind: 'no_response', errorCode: 'READ_TIMEOUT', message: 'x', durationMs: 400 };
    expect(toSendPixResult(failure, ID)).toBe(failure);
  });
});

describe('toLookupResult', () => {
  it.each<[string, ProviderHttpResult, Record<string, unknown>]>([
    ['found and paid', response(200, sent('REALIZADO')), { kind: 'found', consistent: true, charges: [{ outcome: 'succeeded', amountCents: 1234, currency: 'brl', attemptId: '3f2a9c1d-0b4e-4c8a-9d7e-1a2b3c4d5e6f' }] }],
    ['found by gnExtras.idEnvio', response(200, { ...sent('EM_PROCESSAMENTO'), idEnvio: undefined, gnExtras: { idEnvio: ID } }), { kind: 'found', charges: [{ outcome: 'pending' }] }],
    ['an unknown status resolves nothing', response(200, sent('AGENDADO')), { kind: 'found', charges: [{ outcome: 'pending' }] }],
    ['without an end-to-end id yet: nothing to record, never the idEnvio in its place', response(200, sent('EM_PROCESSAMENTO', { endToEndId: undefined })), { kind: 'error', httpStatus: 200 }],
    ['not executed and without an end-to-end id: still a failure', response(200, sent('NAO_REALIZADO', { endToEndId: undefined })), { kind: 'found', charges: [{ outcome: 'failed' }] }],
    ["Efí's own not found", response(404, { nome: 'pix_nao_encontrado', mensagem: 'x' }), { kind: 'not_found', consistent: true }],
    ['any other 404 proves nothing', response(404, '<html>not here</html>'), { kind: 'error', httpStatus: 404 }],
    ['another idEnvio is not ours', response(200, sent('REALIZADO', { idEnvio: 'other' })), { kind: 'error', httpStatus: 200 }],
    ['an unreadable valor', response(200, sent('REALIZADO', { valor: 12.34 })), { kind: 'error' }],
    ['a 500', response(500, { nome: 'erro_interno_servidor' }), { kind: 'error', httpStatus: 500 }],
  ])('%s', (_title, http, expected) => {
    expect(toLookupResult(http, ID)).toMatchObject(expected);
  });
});

describe('readEfiError', () => {
  it.each<[unknown, unknown]>([
    [{ nome: 'pix_nao_encontrado', mensagem: 'm' }, { code: 'pix_nao_encontrado', message: 'm' }],
    [{ type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', title: 't', detail: 'd' }, { type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', code: 'CobOperacaoInvalida', message: 'd' }],
    [{ status: 'REALIZADO' }, null],
    ['text', null],
  ])('reads %j', (body, expected) => {
    expect(readEfiError(body)).toEqual(expected);
  });
});
