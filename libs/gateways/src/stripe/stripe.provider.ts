import type { AppConfig } from '@app/config';
import { ProviderPorts } from '../provider-ports.js';
import { StripeGateway } from './stripe.gateway.js';

/** Stripe as one registered provider: its adapter built from configuration, taking charges and refunds. */
export function stripeProvider(config: AppConfig): ProviderPorts {
  return stripePorts(new StripeGateway({
    apiBase: config.STRIPE_API_BASE,
    secretKey: config.STRIPE_SECRET_KEY ?? '',
    connectTimeoutMs: config.PROVIDER_CONNECT_TIMEOUT_MS,
    readTimeoutMs: config.PROVIDER_READ_TIMEOUT_MS,
    keyLifetimeMs: config.STRIPE_KEY_LIFETIME_MS,
    apiVersion: config.STRIPE_API_VERSION,
    queryRatePerSecond: config.STRIPE_QUERY_RATE_PER_S,
    reportPollMs: config.RECONCILIATION_REPORT_POLL_MS,
    reportTimeoutMs: config.RECONCILIATION_REPORT_TIMEOUT_MS,
  }));
}

/** One Stripe adapter serves both of Stripe's operation families. */
export function stripePorts(stripe: StripeGateway): ProviderPorts {
  return new ProviderPorts(stripe.provider, stripe.capabilities, { charge: stripe, refund: stripe });
}
