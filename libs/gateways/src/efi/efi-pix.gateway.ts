import { isRecord, parseJson } from '@app/common';
import type { GatewayCallResult } from '../gateway-call.result.js';
import type { GatewayCapabilities } from '../gateway.capabilities.js';
import type { LookupResult } from '../provider-lookup.result.js';
import { ProviderHttpClient, type ProviderTlsOptions } from '../http/provider-http.client.js';
import { PixPayoutGateway, type PixSendRequest, type SentPixLine } from '../pix-payout-gateway.port.js';
import { readStatementPage, type StatementPage } from '../statement/statement-page.retry.js';
import { EFI_PIX_CAPABILITIES } from './efi.capabilities.js';
import { centsToValor } from './efi-amount.js';
import { idEnvioForAttempt } from './efi-id-envio.js';
import { EfiOAuthClient } from './efi-oauth.client.js';
import { readSentPixPage, toLookupResult, toSendPixResult } from './efi-pix.response.js';

export interface EfiPixGatewaySettings {
  /** `https://pix.api.efipay.com.br` (sandbox `https://pix-h.api.efipay.com.br`) or the simulator's. */
  apiBase: string;
  clientId: string;
  clientSecret: string;
  /** The payer's own Pix key (`pagador.chave`): the account the money leaves from. */
  payerPixKey: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Client certificate (mutual TLS) and any extra CA to trust. */
  tls?: ProviderTlsOptions;
  /** Sent Pix per statement page (Efí allows up to 1000). */
  statementPageSize?: number;
}

/** Efí caps `infoPagador` at 140 characters [V SDK types]. */
const MAX_INFO_PAGADOR = 140;
const ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;

/**
 * Efí Pix cash-out over plain HTTP (no SDK: its hidden retries are what this service must control). One PUT per
 * send, under the attempt's idEnvio, which Efí promises never to debit twice; a lookup by idEnvio resolves an
 * unknown. When the token cannot be had the PUT is never sent, and the result says so (`connect_failed`).
 */
export class EfiPixGateway extends PixPayoutGateway {
  readonly provider = 'efi';
  readonly capabilities: GatewayCapabilities;
  private readonly http: ProviderHttpClient;
  private readonly oauth: EfiOAuthClient;
  private readonly apiBase: string;
  private readonly payerPixKey: string;
  private readonly statementPageSize: number;

  constructor(settings: EfiPixGatewaySettings) {
    super();
    // Without credentials nothing can be read: the nightly run leaves Efí out instead of failing every night.
    this.capabilities = settings.clientSecret ? EFI_PIX_CAPABILITIES : { ...EFI_PIX_CAPABILITIES, statementSources: [] };
    this.http = new ProviderHttpClient({ connectTimeoutMs: settings.connectTimeoutMs, readTimeoutMs: settings.readTimeoutMs }, settings.tls);
    this.apiBase = settings.apiBase.replace(/\/+$/, '');
    this.oauth = new EfiOAuthClient(this.http, this.apiBase, settings.clientId, settings.clientSecret);
    this.payerPixKey = settings.payerPixKey;
    this.statementPageSize = settings.statementPageSize ?? 1000;
  }

  transferIdFor(attemptId: string): string {
    return idEnvioForAttempt(attemptId);
  }

  encodePixSend(request: PixSendRequest): string {
    if (request.currency !== 'brl') throw new RangeError(`Pix moves reais only; currency ${request.currency} refused`);
    const info = request.description ? request.description.slice(0, MAX_INFO_PAGADOR) : undefined;
    // Fixed key order, so the same request always encodes to the same bytes (and hash).
    return JSON.stringify({
      valor: centsToValor(request.amountCents),
      pagador: { chave: this.payerPixKey, ...(info ? { infoPagador: info } : {}) },
      favorecido: { chave: request.payeePixKey },
    });
  }

  async sendPix(transferId: string, encodedBody: string): Promise<GatewayCallResult> {
    const idEnvio = requireIdEnvio(transferId);
    const token = await this.oauth.token();
    if (!token.ok) {
      // The transfer itself never left: as safe to retry as a refused connection.
      return { kind: 'connect_failed', errorCode: `OAUTH_${token.errorCode}`, message: `no access token, transfer not sent (${token.message})`, durationMs: token.durationMs };
    }
    const result = await this.http.send({
      method: 'PUT',
      url: `${this.apiBase}/v3/gn/pix/${idEnvio}`,
      headers: { Authorization: `Bearer ${token.accessToken}`, 'Content-Type': 'application/json' },
      body: encodedBody,
    });
    if (result.kind === 'response' && result.status === 401) {
      this.oauth.invalidate(token.accessToken);
      // Refused at authentication (our cached token expired or was revoked), so nothing executed: as safe to
      // resend under the same idEnvio as a refused connection, and a payout must not fail for a stale token.
      return { kind: 'connect_failed', errorCode: 'OAUTH_TOKEN_REFUSED', message: 'access token refused (401), transfer not executed', durationMs: result.durationMs };
    }
    return toSendPixResult(result, idEnvio);
  }

  async findTransfer(transferId: string): Promise<LookupResult> {
    const idEnvio = requireIdEnvio(transferId);
    const token = await this.oauth.token();
    if (!token.ok) return { kind: 'error', message: `no access token (${token.message})`, httpStatus: token.httpStatus, durationMs: token.durationMs };
    const result = await this.http.send({
      method: 'GET',
      url: `${this.apiBase}/v2/gn/pix/enviados/id-envio/${idEnvio}`,
      headers: { Authorization: `Bearer ${token.accessToken}` },
    });
    if (result.kind === 'response' && result.status === 401) this.oauth.invalidate(token.accessToken);
    return toLookupResult(result, idEnvio);
  }

  async *sentPixStatement(from: Date, to: Date, signal?: AbortSignal): AsyncIterable<SentPixLine> {
    for (let page = 0; ; page++) {
      // Like every statement reader: a page that fails transiently is asked again before the run gives up.
      const read = await readStatementPage(() => this.statementPage(from, to, page), (body) => readSentPixPage(body, page), signal);
      yield* read.lines;
      if (page + 1 >= read.pages) return;
    }
  }

  private async statementPage(from: Date, to: Date, page: number): Promise<StatementPage> {
    const token = await this.oauth.token();
    if (!token.ok) return { ok: false, message: `efi statement: no access token (${token.message})`, httpStatus: token.httpStatus };
    const query = new URLSearchParams({ inicio: from.toISOString(), fim: to.toISOString(), 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(this.statementPageSize) });
    const result = await this.http.send({ method: 'GET', url: `${this.apiBase}/v2/gn/pix/enviados?${query.toString()}`, headers: { Authorization: `Bearer ${token.accessToken}` } });
    if (result.kind === 'response' && result.status === 401) this.oauth.invalidate(token.accessToken);
    if (result.kind !== 'response' || result.status !== 200) {
      return { ok: false, message: `efi statement page ${page}: ${result.kind === 'response' ? `HTTP ${result.status}` : result.errorCode}`, httpStatus: result.kind === 'response' ? result.status : null };
    }
    const json = parseJson(result.body);
    return isRecord(json) ? { ok: true, body: json } : { ok: false, message: `efi statement page ${page}: unreadable body`, httpStatus: 200 };
  }
}

function requireIdEnvio(transferId: string): string {
  if (!ID_ENVIO.test(transferId)) throw new RangeError(`idEnvio must match ^[a-zA-Z0-9]{1,35}$, got "${transferId}"`);
  return transferId;
}
