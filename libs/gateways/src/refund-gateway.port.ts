import { DomainError } from '@app/common';
import type { GatewayCallResult } from './gateway-call.result.js';
import type { LookupResult } from './provider-lookup.result.js';

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

/**
 * The refund port: money back through the same attempt model as a charge. A provider that cannot refund has no
 * refund port in its unit, so asking the registry for one refuses (RefundsNotSupportedError) before anything is
 * recorded. Like every port: one HTTP call per method call, retrying is the caller's job.
 */
export abstract class RefundGateway {
  /** Serialises the refund the way it goes on the wire; its hash guards every resend. */
  abstract encodeRefund(request: RefundRequest): string;
  /** Sends a previously encoded refund body with the attempt's key. A found refund's id is `providerChargeId`. */
  abstract createRefund(idempotencyKey: string, encodedBody: string): Promise<GatewayCallResult>;
  /** Asks the provider whether a refund with our reference exists. Never creates anything. */
  abstract findRefundByReference(reference: RefundReference): Promise<LookupResult>;
}

export class RefundsNotSupportedError extends DomainError {
  readonly code = 'refunds_not_supported';
  readonly kind = 'unprocessable';
  constructor(provider: string) {
    super(`provider ${provider} does not support refunds`, { provider });
  }
}

