import { performance } from 'node:perf_hooks';
import { STRIPE_API_VERSION_PINNED } from '@app/config';
import type { GatewayCallResult } from '../gateway-call.result.js';
import type { GatewayCapabilities } from '../gateway.capabilities.js';
import { ChargeGateway } from '../charge-gateway.port.js';
import type { AttemptReference, ChargeFieldProblem, ChargeFields, ChargeRequest } from '../charge-gateway.port.js';
import { elapsedSince, lookupError, lookupResult, type LookupResult, type ProviderCharge, type RetrieveResult } from '../provider-lookup.result.js';
import type { RefundGateway, RefundReference, RefundRequest } from '../refund-gateway.port.js';
import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { ProviderHttpClient } from '../http/provider-http.client.js';
import { stripeCapabilities } from './stripe.capabilities.js';
import { STRIPE_CURRENCIES } from './stripe.currencies.js';
import { encodeStripeCharge } from './stripe-charge.encoding.js';
import { readIntent, toCreateChargeResult, toProviderCharge } from './stripe-intent.response.js';
import { listItems, matchingCharges, readPage } from './stripe-lookup.results.js';
import type { PageOutcome } from './stripe-lookup.results.js';
import { encodeStripeRefund } from './stripe-refund.encoding.js';
import { findStripeRefund } from './stripe-refund.lookup.js';
import { toCreateRefundResult } from './stripe-refund.response.js';
import { StripeStatementReader } from './stripe-statement.reader.js';

export interface StripeGatewaySettings {
  /** `https://api.stripe.com`, or a simulator such as `http://127.0.0.1:12111`. */
  apiBase: string;
  secretKey: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  keyLifetimeMs?: number;
  queryRatePerSecond?: number;
  /**
   * Sent as `Stripe-Version` (default: the version the adapter's types come from), so the account's default
   * version never decides the shape of an answer.
   */
  apiVersion?: string;
  /** How often a requested statement report is polled, and for how long at most. */
  reportPollMs?: number;
  reportTimeoutMs?: number;
}

/** The list window opens this long before the attempt was created, to absorb clock skew with Stripe. */
const LIST_SKEW_BEFORE_SEC = 300;
const LIST_SKEW_AFTER_SEC = 60;
const PAGE_SIZE = 100;
/** Bounds one lookup's cost; a customer with more intents than this in the window gets an error, not a guess. */
const MAX_PAGES = 10;

/**
 * Stripe PaymentIntents over plain HTTP (no SDK: its hidden retries and automatic keys are exactly what this
 * service must control itself). One HTTP call per `createCharge`; lookups page through a bounded list.
 * The secret key only ever goes into the Authorization header, never into a result or message.
 */
export class StripeGateway extends ChargeGateway implements RefundGateway {
  readonly provider = 'stripe';
  readonly capabilities: GatewayCapabilities;
  readonly currencies = STRIPE_CURRENCIES;
  private readonly http: ProviderHttpClient;
  private readonly apiBase: string;
  /** A true private field: invisible to JSON.stringify and util.inspect, so logging the gateway leaks no key. */
  readonly #commonHeaders: Readonly<Record<string, string>>;
  readonly #statements: StripeStatementReader;

  constructor(settings: StripeGatewaySettings) {
    super();
    const { keyLifetimeMs, queryRatePerSecond, connectTimeoutMs, readTimeoutMs } = settings;
    this.capabilities = stripeCapabilities({ keyLifetimeMs, queryRatePerSecond });
    // Kept alive: the submit path's provider call skips a TCP (and TLS) handshake each time.
    this.http = new ProviderHttpClient({ connectTimeoutMs, readTimeoutMs }, {}, 'kept-alive');
    this.apiBase = settings.apiBase.replace(/\/+$/, '');
    this.#commonHeaders = {
      Authorization: `Bearer ${settings.secretKey}`,
      'Stripe-Version': settings.apiVersion ?? STRIPE_API_VERSION_PINNED,
    };
    this.#statements = new StripeStatementReader(this.http, {
      apiBase: this.apiBase,
      headers: this.#commonHeaders,
      reportPollMs: settings.reportPollMs ?? 5000,
      reportTimeoutMs: settings.reportTimeoutMs ?? 1_800_000,
    });
  }

  /** Balance transactions of [from, to): paged from the API, or the itemized report's file, streamed. */
  override statement(request: StatementRequest): AsyncIterable<StatementLine> {
    return request.source === 'report' ? this.#statements.reportLines(request) : this.#statements.apiLines(request);
  }

  override chargeFieldProblem(fields: ChargeFields): ChargeFieldProblem | null {
    return fields.paymentMethodId
      ? null
      : { field: 'paymentMethodId', message: 'paymentMethodId is required for Stripe charges: an off-session confirm without one would fall back to a legacy default_source only' };
  }

  encodeCharge(request: ChargeRequest): string {
    return encodeStripeCharge(request);
  }

  async createCharge(idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult> {
    const result = await this.http.send({
      method: 'POST',
      url: `${this.apiBase}/v1/payment_intents`,
      headers: {
        ...this.#commonHeaders,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Idempotency-Key': idempotencyKey,
      },
      body: encodedBody,
    });
    return toCreateChargeResult(result);
  }

  encodeRefund(request: RefundRequest): string {
    return encodeStripeRefund(request);
  }

  async createRefund(idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult> {
    const result = await this.http.send({
      method: 'POST',
      url: `${this.apiBase}/v1/refunds`,
      headers: { ...this.#commonHeaders, 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': idempotencyKey },
      body: encodedBody,
    });
    return toCreateRefundResult(result);
  }

  findRefundByReference(reference: RefundReference): Promise<LookupResult> {
    return findStripeRefund((path, params) => this.getPage(path, params), reference);
  }

  /** A known intent id is retrieved directly; otherwise the strongly consistent list is scanned. */
  findByReference(reference: AttemptReference): Promise<LookupResult> {
    return reference.providerChargeId ? this.retrieve(reference, reference.providerChargeId) : this.listByReference(reference);
  }

  private async listByReference(reference: AttemptReference): Promise<LookupResult> {
    const startedAt = performance.now();
    const createdSec = Math.floor(reference.createdAt.getTime() / 1000);
    const sentFromSec = Math.floor(Math.min(reference.sentFrom?.getTime() ?? Infinity, reference.createdAt.getTime()) / 1000);
    const base = {
      customer: reference.customerId,
      'created[gte]': String(sentFromSec - LIST_SKEW_BEFORE_SEC),
      // Requests for an attempt stop within its key's lifetime, so no intent of it can be newer than that (plus
      // skew): a re-check days later does not page through everything the customer bought since.
      'created[lte]': String(Math.min(Math.ceil(Date.now() / 1000), createdSec + Math.ceil(this.capabilities.keyLifetimeMs / 1000)) + LIST_SKEW_AFTER_SEC),
      limit: String(PAGE_SIZE),
    };
    const found: ProviderCharge[] = [];
    let startingAfter: string | null = null;
    for (let count = 0; count < MAX_PAGES; count += 1) {
      const params: Record<string, string> = startingAfter ? { ...base, starting_after: startingAfter } : base;
      const outcome = await this.getPage('/v1/payment_intents', params);
      if (!outcome.ok) return lookupError(outcome, startedAt);
      const data = listItems(outcome.body);
      if (!data) return lookupError({ message: 'list answered 2xx without a list of intents: it proves nothing', httpStatus: 200 }, startedAt);
      // Every match is kept: two intents for one attempt is a duplicate charge the caller must see.
      found.push(...matchingCharges(data, reference.attemptId));
      startingAfter = readIntent(data.at(-1))?.id ?? null;
      if (outcome.body.has_more !== true) return lookupResult(found, true, startedAt);
      // A list that has more but whose last item cannot be read was not read to the end: it proves no absence.
      if (!startingAfter) return lookupError({ message: 'list says it has more intents but its last item has no id', httpStatus: 200 }, startedAt);
    }
    if (found.length > 0) return lookupResult(found, true, startedAt);
    const message = `more than ${MAX_PAGES * PAGE_SIZE} intents in the window; the list was not read to the end`;
    return { kind: 'error', message, httpStatus: null, durationMs: elapsedSince(startedAt) };
  }

  private async retrieve(reference: AttemptReference, intentId: string): Promise<LookupResult> {
    const startedAt = performance.now();
    const outcome = await this.getPage(`/v1/payment_intents/${encodeURIComponent(intentId)}`, {});
    // A 404 for an id Stripe itself gave us means a wrong account or key, not a missing charge.
    if (!outcome.ok) return lookupError(outcome, startedAt);
    const intent = readIntent(outcome.body);
    if (!intent) return lookupError({ message: 'retrieve returned no payment intent', httpStatus: 200 }, startedAt);
    if (intent.metadata.attempt_id !== reference.attemptId) {
      const message = `payment intent ${intent.id} belongs to attempt ${String(intent.metadata.attempt_id)}`;
      return lookupError({ message, httpStatus: 200 }, startedAt);
    }
    return lookupResult([toProviderCharge(intent, outcome.body)], true, startedAt);
  }

  /** `GET /v1/payment_intents/:id`; Stripe's 404 `resource_missing` is the only "no such charge". */
  override async retrieveCharge(providerChargeId: string): Promise<RetrieveResult> {
    const startedAt = performance.now();
    const outcome = await this.getPage(`/v1/payment_intents/${encodeURIComponent(providerChargeId)}`, {});
    if (!outcome.ok) {
      if (outcome.httpStatus === 404) return { kind: 'not_found', durationMs: elapsedSince(startedAt) };
      return { kind: 'error', message: outcome.message, httpStatus: outcome.httpStatus, durationMs: elapsedSince(startedAt) };
    }
    const intent = readIntent(outcome.body);
    if (!intent) return { kind: 'error', message: 'retrieve returned no payment intent', httpStatus: 200, durationMs: elapsedSince(startedAt) };
    return { kind: 'found', charge: toProviderCharge(intent, outcome.body), durationMs: elapsedSince(startedAt) };
  }

  private async getPage(path: string, params: Record<string, string>): Promise<PageOutcome> {
    const query = new URLSearchParams(params).toString();
    const result = await this.http.send({
      method: 'GET',
      url: `${this.apiBase}${path}${query ? `?${query}` : ''}`,
      headers: this.#commonHeaders,
    });
    return readPage(result, path);
  }
}
