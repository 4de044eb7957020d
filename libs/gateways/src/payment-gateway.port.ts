import { DomainError } from '@app/common';
import type { GatewayCallResult, ProviderOutcome } from './gateway-call.result.js';
import type { GatewayCapabilities } from './gateway.capabilities.js';
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
  /** How the customer pays, for providers that need it (Asaas: PIX, BOLETO, CREDIT_CARD). */
  billingType?: string | null;
  /** YYYY-MM-DD, for providers whose charges fall due (Asaas); absent lets the adapter pick today. */
  dueDate?: string | null;
}

/** The charge fields an adapter checks before a charge is accepted for it. */
export interface ChargeFields {
  currency: string;
  billingType: string | null;
}

/** A field of a charge the provider cannot take, named so the api answers 400 saying which. */
export interface ChargeFieldProblem {
  field: string;
  message: string;
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
  /**
   * YYYY-MM-DD: a created charge that waits for its payer (a boleto or Pix) and may be paid until this due date.
   * Absent when the charge does not wait for anyone (a card), or once it is paid or cancelled.
   */
  payableUntil?: string | null;
}

/** What the provider said to a cancel of a charge that was never paid. */
export type CancelResult =
  | { kind: 'cancelled'; body: unknown; durationMs: number }
  /** The provider refused (already paid, say) or could not be asked: nothing is proven, the charge is read again. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

/** Exactly what is sent to the provider for one refund attempt; stored and resent byte for byte like a charge. */
export interface RefundRequest {
  attemptId: string;
  refundId: string;
  /** Our charge; null when the refunded provider charge is none of ours (an executed refund proposal). */
  chargeId: string | null;
  /** The provider's id of the charge being refunded (our success's, or the one a proposal names). */
  providerChargeId: string;
  amountCents: number;
  currency: string;
}

/** Where to look for a refund attempt at the provider. */
export interface RefundReference {
  attemptId: string;
  refundId: string;
  /** The refunded charge at the provider: its refunds are listed to find ours. */
  providerChargeId: string;
  createdAt: Date;
  /** The provider's refund id, once a response or webhook named it. */
  providerRefundId: string | null;
}

export type LookupResult =
  | { kind: 'found'; charges: ProviderCharge[]; consistent: boolean; durationMs: number }
  | { kind: 'not_found'; consistent: boolean; durationMs: number }
  /** The query itself failed (timeout, 5xx, 429): it proves nothing either way. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

export type RetrieveResult =
  | { kind: 'found'; charge: ProviderCharge; durationMs: number }
  /** The provider answered that no charge has this id. */
  | { kind: 'not_found'; durationMs: number }
  /** The query failed or the adapter cannot retrieve by id: it proves nothing either way. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

/** Where a statement comes from: API paging for ordinary days, the provider's report file for large ones. */
export type StatementSource = 'api' | 'report';

/** `payout`: money we sent out (a Pix transfer the provider executed), read from a payout gateway's statement. */
export type StatementLineKind = 'charge' | 'refund' | 'dispute' | 'dispute_reversal' | 'payout' | 'other';

/** One line of the provider's statement (a balance change), normalised; amounts signed, in minor units. */
export interface StatementLine {
  /** The provider's id of the line (Stripe: `txn_...`), unique per provider. */
  lineId: string;
  kind: StatementLineKind;
  /** The id our attempts carry (Stripe: the PaymentIntent id; Efí: the Pix end-to-end id); for a refund or dispute, that of the payment. */
  providerChargeId: string | null;
  /** Our references, from the payment's metadata, when the provider gives them back. */
  attemptId: string | null;
  chargeId: string | null;
  amountCents: number;
  currency: string;
  createdAt: Date;
  /** The provider's own id of the operation when it is not the line id (Efí: the transfer's idEnvio; Stripe: a refund's `re_...`). */
  reference?: string | null;
  /** The provider's own word for the operation's state (Efí: REALIZADO, NAO_REALIZADO...), kept as evidence. */
  providerStatus?: string | null;
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
  /** Told where the read's time goes, by readers that measure it. */
  timing?: StatementTiming;
}

/**
 * Milliseconds a reader spent waiting for the provider's bytes (`download`, only while nothing else could proceed)
 * and turning them into lines (`parse`), added as they pass.
 */
export interface StatementTiming {
  add(phase: 'download' | 'parse', ms: number): void;
}

/**
 * The gateway port and its DI token. Services depend on this abstract class; adapters extend it.
 * An adapter makes exactly one HTTP call per method call: retrying is the caller's job, done by queued
 * jobs with the same key and payload, never by a hidden loop here.
 */
export abstract class PaymentGateway {
  abstract readonly provider: string;
  abstract readonly capabilities: GatewayCapabilities;
  /** Whether the provider can take a charge with these fields; null when it can. Nothing is sent. */
  chargeFieldProblem(_fields: ChargeFields): ChargeFieldProblem | null {
    return null;
  }
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

  /**
   * Retrieves one provider charge by the provider's own id, whoever it belongs to: a reviewer's claim that
   * "this charge is the attempt's" is checked against what it really is. Never creates anything. Adapters
   * that can do it override this; the default proves nothing, so no decision can rest on it.
   */
  async retrieveCharge(providerChargeId: string): Promise<RetrieveResult> {
    return { kind: 'error', message: `the ${this.provider} adapter cannot retrieve charge ${providerChargeId} by id`, httpStatus: null, durationMs: 0 };
  }

  /**
   * Cancels a charge still waiting for its payer, so it can no longer be paid. Adapters whose charges wait
   * (`payableUntil`) override it; the default cancels nothing.
   */
  async cancelCharge(providerChargeId: string): Promise<CancelResult> {
    return { kind: 'error', message: `the ${this.provider} adapter cannot cancel charge ${providerChargeId}`, httpStatus: null, durationMs: 0 };
  }

  /**
   * Refunds go through the same attempt model. An adapter that cannot refund yet keeps these defaults:
   * encoding refuses (so no refund is ever recorded for it) and a lookup proves nothing.
   */
  encodeRefund(_request: RefundRequest): string {
    throw new RefundsNotSupportedError(this.provider);
  }

  /** Sends a previously encoded refund body with the attempt's key. A found refund's id is `providerChargeId`. */
  createRefund(_idempotencyKey: string, _encodedBody: string): Promise<GatewayCallResult> {
    return Promise.resolve({ kind: 'connect_failed', errorCode: 'refunds_not_supported', message: `${this.provider} cannot refund`, durationMs: 0 });
  }

  /** Asks the provider whether a refund with our reference exists. Never creates anything. */
  findRefundByReference(_reference: RefundReference): Promise<LookupResult> {
    return Promise.resolve({ kind: 'error', message: `${this.provider} cannot look refunds up`, httpStatus: null, durationMs: 0 });
  }
}

export class RefundsNotSupportedError extends DomainError {
  readonly code = 'refunds_not_supported';
  readonly kind = 'unprocessable';
  constructor(provider: string) {
    super(`provider ${provider} does not support refunds`, { provider });
  }
}
