import { DomainError } from '@app/common';
import type { ChargeGateway } from './charge-gateway.port.js';
import type { GatewayCapabilities } from './gateway.capabilities.js';
import type { PixPayoutGateway } from './pix-payout-gateway.port.js';
import { RefundsNotSupportedError, type RefundGateway } from './refund-gateway.port.js';

/** One port per operation family: an attempt's operation names the port its provider call goes through. */
export interface OperationPorts {
  charge: ChargeGateway;
  refund: RefundGateway;
  payout: PixPayoutGateway;
}

export type OperationFamily = keyof OperationPorts;

/**
 * One provider as the registry holds it: what it guarantees, and its port for each operation family it offers
 * (Stripe and Asaas: charge and refund, through one adapter; Efí: payout). Asking for a port it does not offer
 * refuses before anything is encoded or sent, so no caller needs to test an adapter's class.
 */
export class ProviderPorts {
  constructor(
    readonly provider: string,
    readonly capabilities: GatewayCapabilities,
    private readonly ports: Partial<OperationPorts>,
  ) {}

  offers(operation: OperationFamily): boolean {
    return this.ports[operation] !== undefined;
  }

  port<O extends OperationFamily>(operation: O): NonNullable<Partial<OperationPorts>[O]> {
    const port = this.ports[operation];
    if (port) return port;
    throw operation === 'refund' ? new RefundsNotSupportedError(this.provider) : new OperationNotSupportedError(this.provider, operation);
  }
}

export class OperationNotSupportedError extends DomainError {
  readonly code = 'operation_not_supported';
  readonly kind = 'unprocessable';
  constructor(provider: string, operation: string) {
    super(`provider ${provider} offers no ${operation} port`, { provider, operation });
  }
}
