import type { GatewayCallResult, ProviderOutcome } from './gateway-call-result.js';
import type { GatewayCapabilities } from './gateway-capabilities.js';
import { StatementUnsupportedError } from './statement.errors.js';

/** Exactly what is sent to the provider for one attempt; stored on the attempt and resent byte for byte. */
export interface ChargeRequest {
  attemptId: string;
  chargeId: string;
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId: string | null;
}

/** Where to look for an attempt at the provider. */
export interface AttemptReference {
  attemptId: string;
  chargeId: string;
  customerId: string;
  /** When the attempt was created: bounds a strongly consistent list query. */
  createdAt: Date;
  /** Known when a response or webhook already named it: a direct retrieve beats a search. */
  providerChargeId: string | null;
}

export interface ProviderCharge {
  providerChargeId: string;
  outcome: ProviderOutcome;
  amountCents: number;
  currency: string;
  attemptId: string | null;
  raw: unknown;
}

export type LookupResult =
  | { kind: 'found'; charges: ProviderCharge[]; consistent: boolean; durationMs: number }
  | { kind: 'not_found'; consistent: boolean; durationMs: number }
  /** The query itself failed (timeout, 5xx, 429): it proves nothing either way. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

/** Where a statement comes from: API paging for ordinary days, the provider's report file for large ones. */
export type StatementSource = 'api' | 'report';

export type StatementLineKind = 'charge' | 'refund' | 'dispute' | 'dispute_reversal' | 'other';

/** One line of the provider's statement (a balance change), normalised; amounts signed, in minor units. */
export interface StatementLine {
  /** The provider's id of the line (Stripe: `txn_...`), unique per provider. */
  lineId: string;
  kind: StatementLineKind;
  /** The id our attempts carry (Stripe: the PaymentIntent id); for a refund or dispute, that of the payment. */
  providerChargeId: string | null;
  /** Our references, from the payment's metadata, when the provider gives them back. */
  attemptId: string | null;
  chargeId: string | null;
  amountCents: number;
  currency: string;
  createdAt: Date;
}

export interface StatementRequest {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  source: StatementSource;
  /** Stable per run: lets a run taken over by another worker reuse the report it already requested. */
  requestKey: string;
  signal?: AbortSignal;
}

/**
 * The gateway port and its DI token. Services depend on this abstract class; adapters extend it.
 * An adapter makes exactly one HTTP call per method call: retrying is the caller's job, done by queued
 * jobs with the same key and payload, never by a hidden loop here.
 */
export abstract class PaymentGateway {
  abstract readonly provider: string;
  abstract readonly capabilities: GatewayCapabilities;
  /** Serialises the request the way it goes on the wire; its hash guards every resend. */
  abstract encodeCharge(request: ChargeRequest): string;
  /** Sends a previously encoded body with the attempt's key. */
  abstract createCharge(idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult>;
  /** Asks the provider whether a charge with our reference exists. Never creates anything. */
  abstract findByReference(reference: AttemptReference): Promise<LookupResult>;
  /**
   * Every balance change of [from, to), streamed: never the whole day in memory. Reads only; a provider that
   * fails mid-way throws `StatementUnavailableError` and the run fails (it can be run again).
   * Not abstract, so adapters without a statement still compile; they refuse here.
   */
  statement(request: StatementRequest): AsyncIterable<StatementLine> {
    throw new StatementUnsupportedError(this.provider, request.source);
  }
}
