import { DomainError } from '@app/common';
import type { ChargeGateway } from './charge-gateway.port.js';
import type { ProviderPorts } from './provider-ports.js';

export class UnknownProviderError extends DomainError {
  readonly code = 'unknown_provider';
  readonly kind = 'invalid_input';
  constructor(provider: string, known: string[]) {
    super(`provider must be one of ${known.join(', ')}; got "${provider}"`, { provider });
  }
}

/**
 * Every registered provider by name; a charge, refund or payout names its provider and every later step looks it
 * up here. The worker makes one resolution queue and processor per provider from the same list (PROVIDERS).
 */
export class GatewayRegistry {
  private readonly byName: Map<string, ProviderPorts>;

  constructor(
    providers: ProviderPorts[],
    readonly defaultProvider: string,
  ) {
    this.byName = new Map(providers.map((p) => [p.provider, p]));
  }

  /**
   * The provider an attempt names, whatever its operation: the one sender, resolver and re-check read its
   * capabilities here and take the port of the attempt's operation from it (attempt.operations.ts).
   */
  forAttempt(provider: string): ProviderPorts {
    const ports = this.byName.get(provider);
    if (!ports) throw new UnknownProviderError(provider, this.attemptProviders());
    return ports;
  }

  /** The charge port of a provider that takes charges (Stripe, Asaas). */
  get(provider: string): ChargeGateway {
    const ports = this.byName.get(provider);
    if (!ports?.offers('charge')) throw new UnknownProviderError(provider, this.names());
    return ports.port('charge');
  }

  /** The providers that take charges. */
  private names(): string[] {
    return this.attemptProviders().filter((name) => this.forAttempt(name).offers('charge'));
  }

  /** Every provider an attempt can name: charge providers and payout providers. */
  attemptProviders(): string[] {
    return [...this.byName.keys()];
  }
}
