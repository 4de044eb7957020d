import { DomainError } from '@app/common';
import type { PaymentGateway } from './payment-gateway.port.js';

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

  constructor(
    gateways: PaymentGateway[],
    readonly defaultProvider: string,
  ) {
    this.byName = new Map(gateways.map((g) => [g.provider, g]));
  }

  get(provider: string): PaymentGateway {
    const gateway = this.byName.get(provider);
    if (!gateway) throw new UnknownProviderError(provider, this.names());
    return gateway;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
