import type { GatewayCallResult } from './gateway-call.result.js';
import type { GatewayCapabilities } from './gateway.capabilities.js';
import type { LookupResult, RetrieveResult } from './provider-lookup.result.js';
import type { ProviderCurrencies } from './provider-currencies.js';
import { StatementUnsupportedError } from './statement.errors.js';
import type { StatementLine, StatementRequest } from './statement/statement-line.js';

/** Exactly what is sent to the provider for one attempt; stored on the attempt and resent byte for byte. */
export interface ChargeRequest {
  attemptId: string;
  chargeId: string;
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId: string | null;
  /** The IP the customer buys from (Asaas `remoteIp`, sent with a card token). */
  customerIp?: string | null;
  /** How the customer pays, for providers that need it (Asaas: PIX, BOLETO, CREDIT_CARD). */
  billingType?: string | null;
  /** YYYY-MM-DD, for providers whose charges fall due (Asaas); absent lets the adapter pick today. */
  dueDate?: string | null;
}

/** The charge fields an adapter checks before a charge is accepted for it. */
export interface ChargeFields {
  currency: string;
  billingType: string | null;
  /** The payment method the charge names, where the provider needs one (Stripe; an Asaas card's token). */
  paymentMethodId?: string | null;
  customerIp?: string | null;
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
  /**
   * The earliest a request under this attempt's id can have left (its charge's creation): an attempt opened again
   * after its row was lost to a failover keeps the lost one's id, whose request left before this row's createdAt.
   */
  sentFrom?: Date;
  /** Known when a response or webhook already named it: a direct retrieve beats a search. */
  providerChargeId: string | null;
}

/** What the provider said to a cancel of a charge that was never paid. */
export type CancelResult =
  | { kind: 'cancelled'; body: unknown; durationMs: number }
  /** The provider refused (already paid, say) or could not be asked: nothing is proven, the charge is read again. */
  | { kind: 'error'; message: string; httpStatus: number | null; durationMs: number };

/**
 * The charge port. Services reach it through the registry; adapters extend it (and implement the refund port
 * when the provider refunds).
 * An adapter makes exactly one HTTP call per method call: retrying is the caller's job, done by queued
 * jobs with the same key and payload, never by a hidden loop here.
 */
export abstract class ChargeGateway {
  abstract readonly provider: string;
  abstract readonly capabilities: GatewayCapabilities;
  /** The currencies it takes and its amount rules in each (provider-currencies.ts checks a charge against them). */
  abstract readonly currencies: ProviderCurrencies;
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
}
