import { performance } from 'node:perf_hooks';
import { parseJson } from '@app/common';
import type { GatewayCallResult } from '../gateway-call.result.js';
import type { GatewayCapabilities } from '../gateway.capabilities.js';
import { ChargeGateway } from '../charge-gateway.port.js';
import type { AttemptReference, CancelResult, ChargeFieldProblem, ChargeFields, ChargeRequest } from '../charge-gateway.port.js';
import { elapsedSince, lookupError, lookupResult, type LookupResult, type ProviderCharge, type RetrieveResult } from '../provider-lookup.result.js';
import type { RefundGateway, RefundReference, RefundRequest } from '../refund-gateway.port.js';
import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { ProviderHttpClient } from '../http/provider-http.client.js';
import { ASAAS_CURRENCIES, asaasCapabilities } from './asaas.capabilities.js';
import { asaasStatementLines } from './asaas-statement.reader.js';
import { asaasRefundLines } from './asaas-refund-statement.reader.js';
import { asaasRefundsOf, decodeAsaasRefund, encodeAsaasRefund, toAsaasRefundResult } from './asaas-refund.js';
import { asaasChargeProblem, encodeAsaasCharge, todayIn } from './asaas-charge.encoding.js';
import { readAsaasError, readPayment, toAsaasCreateResult, toAsaasProviderCharge } from './asaas-payment.response.js';

export interface AsaasGatewaySettings {
  /** `https://api.asaas.com` (sandbox `https://api-sandbox.asaas.com`), or a simulator; without `/v3`. */
  apiBase: string;
  apiKey: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  consistencyWindowMs?: number;
  queryRatePerSecond?: number;
  /** The business's time zone: a charge with no due date falls due today there. */
  timeZone: string;
  /** Mandatory for accounts created since 2024-06-13. */
  userAgent?: string;
}

const PAGE_SIZE = 100;
/** One attempt has one payment, or a few duplicates: more than this many is an error, not a guess. */
const MAX_PAGES = 5;

type PageOutcome = { ok: true; body: Record<string, unknown> } | { ok: false; message: string; httpStatus: number | null };

/**
 * Asaas payments over plain HTTP (provider-contracts.md §3). Asaas has no idempotency key, so the
 * attempt id travels as `externalReference` and every question about a lost request is a list by it.
 * `createCharge` ignores the key it is handed: resending is only ever safe when the previous send is
 * proven never to have arrived, and the attempt rules (reading `nativeIdempotency: false`) enforce that.
 * The access token only ever goes into the `access_token` header, never into a result or message.
 */
export class AsaasGateway extends ChargeGateway implements RefundGateway {
  readonly provider = 'asaas';
  readonly capabilities: GatewayCapabilities;
  readonly currencies = ASAAS_CURRENCIES;
  private readonly http: ProviderHttpClient;
  private readonly apiBase: string;
  private readonly timeZone: string;
  readonly #headers: Readonly<Record<string, string>>;

  constructor(settings: AsaasGatewaySettings) {
    super();
    const { consistencyWindowMs, queryRatePerSecond, connectTimeoutMs, readTimeoutMs } = settings;
    this.capabilities = asaasCapabilities({ consistencyWindowMs, queryRatePerSecond });
    this.http = new ProviderHttpClient({ connectTimeoutMs, readTimeoutMs });
    this.apiBase = settings.apiBase.replace(/\/+$/, '');
    this.timeZone = settings.timeZone;
    this.#headers = { access_token: settings.apiKey, 'User-Agent': settings.userAgent ?? 'charge-once/0.1' };
  }

  override chargeFieldProblem(fields: ChargeFields): ChargeFieldProblem | null {
    return asaasChargeProblem(fields);
  }

  encodeCharge(request: ChargeRequest): string {
    return encodeAsaasCharge(request, todayIn(this.timeZone, new Date()));
  }

  async createCharge(_idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult> {
    const result = await this.http.send({
      method: 'POST',
      url: `${this.apiBase}/v3/payments`,
      headers: { ...this.#headers, 'Content-Type': 'application/json' },
      body: encodedBody,
    });
    return toAsaasCreateResult(result);
  }

  /**
   * Every payment carrying our reference, from the list by `externalReference` (which may lag behind
   * creates, hence `consistent: false`), plus a direct read of the payment we already know of, which
   * does not lag. Every match is returned: two payments under one reference is a duplicate charge the
   * caller must see at once.
   */
  async findByReference(reference: AttemptReference): Promise<LookupResult> {
    const startedAt = performance.now();
    const found: ProviderCharge[] = [];
    if (reference.providerChargeId) {
      const known = await this.retrieve(reference.providerChargeId, reference.attemptId);
      if (!known.ok) return lookupError(known, startedAt);
      found.push(known.charge);
    }
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const params = { externalReference: reference.attemptId, offset: String(page * PAGE_SIZE), limit: String(PAGE_SIZE) };
      const outcome = await this.get('/v3/payments', params);
      if (!outcome.ok) return lookupError(outcome, startedAt);
      // A page that is not Asaas' list shape (a proxy's page, `{}`) shows nothing: it proves no absence.
      if (!Array.isArray(outcome.body.data) || typeof outcome.body.hasMore !== 'boolean') {
        return lookupError({ message: 'payments list answered 2xx without data and hasMore: it proves nothing', httpStatus: 200 }, startedAt);
      }
      const data = outcome.body.data as unknown[];
      for (const raw of data) {
        const payment = readPayment(raw);
        // The filter should return only our reference; anything else proves nothing about this attempt.
        if (payment && payment.externalReference === reference.attemptId && !found.some((c) => c.providerChargeId === payment.id)) {
          found.push(toAsaasProviderCharge(payment, raw));
        }
      }
      if (outcome.body.hasMore !== true) return lookupResult(found, false, startedAt);
    }
    const message = `more than ${MAX_PAGES * PAGE_SIZE} payments under one reference; the list was not read to the end`;
    return { kind: 'error', message, httpStatus: null, durationMs: elapsedSince(startedAt) };
  }

  encodeRefund(request: RefundRequest): string {
    return encodeAsaasRefund(request);
  }

  /** One `POST /v3/payments/{id}/refund`: no key to send, so only a send proven never to have arrived is repeated. */
  async createRefund(_idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult> {
    const { paymentId, body, attemptId } = decodeAsaasRefund(encodedBody);
    const result = await this.http.send({
      method: 'POST',
      url: `${this.apiBase}/v3/payments/${encodeURIComponent(paymentId)}/refund`,
      headers: { ...this.#headers, 'Content-Type': 'application/json' },
      body,
    });
    return toAsaasRefundResult(result, attemptId);
  }

  /**
   * The refunded payment read by id, and our refund among its `refunds[]`. Whether a refund shows there at once is
   * not promised, so a miss counts only after the consistency window (`consistent: false`), like the payments list.
   */
  async findRefundByReference(reference: RefundReference): Promise<LookupResult> {
    const startedAt = performance.now();
    const outcome = await this.get(`/v3/payments/${encodeURIComponent(reference.providerChargeId)}`, {});
    if (!outcome.ok) return lookupError(outcome, startedAt);
    const refunds = asaasRefundsOf(outcome.body, reference.attemptId);
    // A body that is not the payment with a readable refund list shows nothing: it proves no absence.
    if (refunds === null) return lookupError({ message: 'payment answered 2xx without a readable refunds list: it proves nothing', httpStatus: 200 }, startedAt);
    return lookupResult(refunds, false, startedAt);
  }

  /**
   * The payments received in the request's days, then the refunds its extrato shows in them, as statement lines
   * (`api` only: Asaas has no report file).
   */
  override statement(request: StatementRequest): AsyncIterable<StatementLine> {
    if (request.source !== 'api') return super.statement(request);
    const get = (path: string, params: Record<string, string>) => this.get(path, params);
    const timeZone = this.timeZone;
    return (async function* () {
      yield* asaasStatementLines(request, timeZone, get);
      yield* asaasRefundLines(request, timeZone, get);
    })();
  }

  /**
   * One payment by Asaas' own id, whoever it belongs to (a reviewer's claim is checked against what it really is):
   * a 404 is the provider saying there is no such payment; anything else unreadable proves nothing.
   */
  override async retrieveCharge(providerChargeId: string): Promise<RetrieveResult> {
    const startedAt = performance.now();
    const outcome = await this.get(`/v3/payments/${encodeURIComponent(providerChargeId)}`, {});
    if (!outcome.ok && outcome.httpStatus === 404) return { kind: 'not_found', durationMs: elapsedSince(startedAt) };
    if (!outcome.ok) return { kind: 'error', message: outcome.message, httpStatus: outcome.httpStatus, durationMs: elapsedSince(startedAt) };
    const payment = readPayment(outcome.body);
    if (!payment) return { kind: 'error', message: 'retrieve returned no payment', httpStatus: 200, durationMs: elapsedSince(startedAt) };
    return { kind: 'found', charge: toAsaasProviderCharge(payment, outcome.body), durationMs: elapsedSince(startedAt) };
  }

  /**
   * `DELETE /v3/payments/{id}`: Asaas removes only a payment awaiting payment or overdue, and its customer can no
   * longer pay it. Only an answer that says `deleted: true` for this very payment counts; anything else proves nothing.
   */
  override async cancelCharge(providerChargeId: string): Promise<CancelResult> {
    const startedAt = performance.now();
    const outcome = await this.call('DELETE', `/v3/payments/${encodeURIComponent(providerChargeId)}`, {});
    if (!outcome.ok) return { kind: 'error', message: outcome.message, httpStatus: outcome.httpStatus, durationMs: elapsedSince(startedAt) };
    if (outcome.body.deleted !== true || outcome.body.id !== providerChargeId) {
      return { kind: 'error', message: 'delete answered 2xx without deleted: true for this payment', httpStatus: 200, durationMs: elapsedSince(startedAt) };
    }
    return { kind: 'cancelled', body: outcome.body, durationMs: elapsedSince(startedAt) };
  }

  private async retrieve(paymentId: string, attemptId: string): Promise<{ ok: true; charge: ProviderCharge } | { ok: false; message: string; httpStatus: number | null }> {
    const outcome = await this.get(`/v3/payments/${encodeURIComponent(paymentId)}`, {});
    // A 404 for an id Asaas itself gave us means a wrong account or key, not a missing payment.
    if (!outcome.ok) return outcome;
    const payment = readPayment(outcome.body);
    if (!payment) return { ok: false, message: 'retrieve returned no payment', httpStatus: 200 };
    if (payment.externalReference !== attemptId) {
      return { ok: false, message: `payment ${payment.id} belongs to reference ${String(payment.externalReference)}`, httpStatus: 200 };
    }
    return { ok: true, charge: toAsaasProviderCharge(payment, outcome.body) };
  }

  private get(path: string, params: Record<string, string>): Promise<PageOutcome> {
    return this.call('GET', path, params);
  }

  private async call(method: 'GET' | 'DELETE', path: string, params: Record<string, string>): Promise<PageOutcome> {
    const query = new URLSearchParams(params).toString();
    const result = await this.http.send({ method, url: `${this.apiBase}${path}${query ? `?${query}` : ''}`, headers: this.#headers });
    if (result.kind !== 'response') return { ok: false, message: `${method} ${path}: ${result.kind} (${result.errorCode})`, httpStatus: null };
    const json = parseJson(result.body);
    const body = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
    if (result.status >= 200 && result.status < 300 && body) return { ok: true, body };
    const detail = readAsaasError(json)?.message;
    return { ok: false, message: `${method} ${path} answered ${result.status}${detail ? `: ${detail}` : ''}`, httpStatus: result.status };
  }
}
