import { isRecord, parseJson } from '@app/common';
import type { GatewayCallResult, ProviderError } from '../gateway-call.result.js';
import { toCreateCallResult } from '../http/create-response.reading.js';
import type { LookupResult, ProviderCharge } from '../provider-lookup.result.js';
import type { PixReturn, SentPixLine } from '../pix-payout-gateway.port.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { valorToCents } from './efi-amount.js';
import { attemptIdFromIdEnvio } from './efi-id-envio.js';
import { mapEfiPixStatus } from './efi-pix-status.js';
import type { PageReading } from '../statement/statement-page.retry.js';


const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** Efí's own `{nome, mensagem}` or BACEN's problem+json `{type, title, detail}`. */
export function readEfiError(body: unknown): ProviderError | null {
  if (!isRecord(body)) return null;
  if (text(body.nome)) return { code: text(body.nome), message: text(body.mensagem) };
  const type = text(body.type);
  if (type) return { type, code: type.split('/').at(-1), message: text(body.detail) ?? text(body.title) };
  return null;
}

/** The sent-Pix fields we read (`PUT /v3/gn/pix/:idEnvio` answer and `GET .../id-envio/:idEnvio`). */
export interface EfiSentPixView {
  idEnvio: string | null;
  endToEndId: string | null;
  valor: unknown;
  status: unknown;
}

export function readSentPix(body: unknown): EfiSentPixView | null {
  if (!isRecord(body) || body.status === undefined) return null;
  const extras = isRecord(body.gnExtras) ? body.gnExtras : {};
  return {
    idEnvio: text(body.idEnvio) ?? text(extras.idEnvio) ?? null,
    endToEndId: text(body.endToEndId) ?? text(body.e2eId) ?? null,
    valor: body.valor,
    status: body.status,
  };
}

/**
 * Reads a send: a transport failure passes through; a response keeps its status, error and the sent Pix's state.
 * A refusal (4xx) carries a state only when its body shows this very transfer (`idEnvio`) NAO_REALIZADO: that alone
 * proves a resend's refusal is the transfer's, not just this request's (an earlier request may have executed).
 */
export function toSendPixResult(http: ProviderHttpResult, idEnvio: string): GatewayCallResult {
  // Efí documents no replay marker: a repeated idEnvio is recognised by the state it returns, not a header.
  return toCreateCallResult(http, (json, response) => {
    const error = readEfiError(json);
    if (response.status >= 200 && response.status < 300) {
      const sent = readSentPix(json);
      return { providerChargeId: sent?.endToEndId ?? null, providerOutcome: sent ? mapEfiPixStatus(sent.status) : null, error };
    }
    const refused = response.status < 500 ? readSentPix(json) : null;
    const proven = refused?.idEnvio?.toLowerCase() === idEnvio.toLowerCase() && mapEfiPixStatus(refused.status) === 'failed';
    return { providerChargeId: proven ? refused.endToEndId : null, providerOutcome: proven ? 'failed' : null, error };
  });
}

/**
 * Reads a lookup by idEnvio. Only Efí's own "not found" (404 `pix_nao_encontrado`) proves absence; any other 404
 * (a proxy, a wrong base URL) proves nothing. A found Pix must carry our idEnvio and a readable amount.
 */
export function toLookupResult(http: ProviderHttpResult, idEnvio: string): LookupResult {
  if (http.kind !== 'response') return { kind: 'error', message: `lookup ${idEnvio}: ${http.kind} (${http.errorCode})`, httpStatus: null, durationMs: http.durationMs };
  const json = parseJson(http.body);
  const { durationMs } = http;
  if (http.status === 404 && readEfiError(json)?.code === 'pix_nao_encontrado') return { kind: 'not_found', consistent: true, durationMs };
  const sent = http.status === 200 ? readSentPix(json) : null;
  if (!sent) {
    const detail = readEfiError(json)?.message;
    return { kind: 'error', message: `lookup ${idEnvio} answered ${http.status}${detail ? `: ${detail}` : ''}`, httpStatus: http.status, durationMs };
  }
  const amountCents = valorToCents(sent.valor);
  if (sent.idEnvio?.toLowerCase() !== idEnvio.toLowerCase() || amountCents === null) {
    return { kind: 'error', message: `lookup ${idEnvio} returned a Pix that is not ours or has no readable valor`, httpStatus: 200, durationMs };
  }
  const outcome = mapEfiPixStatus(sent.status);
  if (!sent.endToEndId && outcome !== 'failed') {
    // The idEnvio must never stand in for it: the attempt would learn an id that no webhook or statement line
    // carries, and the real one would later look like a second transfer. Not known yet is still in progress.
    return { kind: 'error', message: `lookup ${idEnvio} found a Pix without an end-to-end id yet`, httpStatus: 200, durationMs };
  }
  const charge: ProviderCharge = {
    providerChargeId: sent.endToEndId ?? idEnvio,
    // A status we do not recognise must not resolve anything: still in progress.
    outcome: outcome ?? 'pending',
    amountCents,
    currency: 'brl',
    attemptId: attemptIdFromIdEnvio(idEnvio),
    raw: json,
  };
  return { kind: 'found', charges: [charge], consistent: true, durationMs };
}

/**
 * One page of `GET /v2/gn/pix/enviados`, parsed: its lines and how many pages there are. Unreadable, or without a
 * page count (which alone says whether the day goes on), it is a failed page, never the day's last.
 */
export function readSentPixPage(json: Record<string, unknown>, page: number): PageReading<{ lines: SentPixLine[]; pages: number }> {
  const unreadable = { ok: false, message: `efi statement page ${page}: unreadable body` } as const;
  if (!isRecord(json) || !Array.isArray(json.pix)) return unreadable;
  const paging = isRecord(json.parametros) && isRecord(json.parametros.paginacao) ? json.parametros.paginacao : {};
  const pages = paging.quantidadeDePaginas;
  if (typeof pages !== 'number' || !Number.isSafeInteger(pages) || pages < 0) return { ok: false, message: `efi statement page ${page}: no parametros.paginacao.quantidadeDePaginas` };
  const lines: SentPixLine[] = [];
  for (const entry of json.pix) {
    const sent = readSentPix(entry);
    const amountCents = sent ? valorToCents(sent.valor) : null;
    const horario = isRecord(entry) && isRecord(entry.horario) ? text(entry.horario.solicitacao) : undefined;
    const returns = isRecord(entry) ? readPixReturns(entry.devolucoes) : null;
    // A return we cannot read is money we would not give back to the account: the page fails, never drops it.
    if (!sent?.endToEndId || amountCents === null || !horario || !returns) return unreadable;
    lines.push({
      endToEndId: sent.endToEndId,
      transferId: sent.idEnvio,
      attemptId: sent.idEnvio ? attemptIdFromIdEnvio(sent.idEnvio) : null,
      amountCents,
      currency: 'brl',
      outcome: mapEfiPixStatus(sent.status),
      status: typeof sent.status === 'string' ? sent.status : null,
      requestedAt: new Date(horario),
      returns,
    });
  }
  return { ok: true, page: { lines, pages } };
}

/**
 * A sent Pix's `devolucoes` (`[{ rtrId, valor, horario }]`, absent when nothing came back), or null when any of it
 * is unreadable: a return is money, so a half-read list is no list.
 */
export function readPixReturns(devolucoes: unknown): PixReturn[] | null {
  if (devolucoes === undefined) return [];
  if (!Array.isArray(devolucoes)) return null;
  const returns: PixReturn[] = [];
  for (const entry of devolucoes) {
    const rtrId = isRecord(entry) ? text(entry.rtrId) : undefined;
    const amountCents = isRecord(entry) ? valorToCents(entry.valor) : null;
    const returnedAt = isRecord(entry) && text(entry.horario) ? new Date(entry.horario as string) : null;
    if (!rtrId || amountCents === null || !returnedAt || Number.isNaN(returnedAt.getTime())) return null;
    returns.push({ rtrId, amountCents, returnedAt });
  }
  return returns;
}
