import { DomainError } from '@app/common';
import type { PaymentGateway } from './payment-gateway.port.js';
import type { PixPayoutGateway } from './pix-payout-gateway.port.js';

/** Any adapter an attempt can be sent through: a payment gateway (charges, refunds) or a Pix payout gateway. */
export type AttemptGateway = PaymentGateway | PixPayoutGateway;

export class UnknownProviderError extends DomainError {
  readonly code = 'unknown_provider';
  readonly kind = 'invalid_input';
  constructor(provider: string, known: string[]) {
    super(`provider must be one of ${known.join(', ')}; got "${provider}"`, { provider });
  }
}

/** Adapters by provider name; a charge names its provider and every later step looks it up here. */
export class GatewayRegistry {
  private readonly byName: Map<string, PaymentGateway>;
  private readonly payoutsByName: Map<string, PixPayoutGateway>;

  constructor(
    gateways: PaymentGateway[],
    readonly defaultProvider: string,
    payoutGateways: PixPayoutGateway[] = [],
  ) {
    this.byName = new Map(gateways.map((g) => [g.provider, g]));
    this.payoutsByName = new Map(payoutGateways.map((g) => [g.provider, g]));
  }

  /**
   * The adapter an attempt of this provider goes through, whatever its operation: the one sender, resolver and
   * re-check read capabilities here and hand it to the attempt's operation (attempt-operations.ts).
   */
  forAttempt(provider: string): AttemptGateway {
    const gateway = this.byName.get(provider) ?? this.payoutsByName.get(provider);
    if (!gateway) throw new UnknownProviderError(provider, [...this.names(), ...this.payoutsByName.keys()]);
    return gateway;
  }

  get(provider: string): PaymentGateway {
    const gateway = this.byName.get(provider);
    if (!gateway) throw new UnknownProviderError(provider, this.names());
    return gateway;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Every provider an attempt can name: payment gateways and payout gateways. */
  attemptProviders(): string[] {
    return [...this.byName.keys(), ...this.payoutsByName.keys()];
  }
}
