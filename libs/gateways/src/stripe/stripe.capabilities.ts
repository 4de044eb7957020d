import type { GatewayCapabilities } from '../gateway.capabilities.js';

export interface StripeCapabilitySettings {
  keyLifetimeMs?: number;
  queryRatePerSecond?: number;
}

const HOUR_MS = 3_600_000;

/** Stripe's guarantees (provider-contracts.md §1). The two numbers are configurable; the rest are facts. */
export const STRIPE_CAPABILITIES: GatewayCapabilities = {
  nativeIdempotency: true,
  // Stripe may prune a key once it is 24 h old: a floor, so it is the lifetime we can count on.
  keyLifetimeMs: 24 * HOUR_MS,
  // The list endpoint is not subject to search lag, so "not found" from it is trustworthy.
  lookupByReference: 'consistent_list',
  // The list never lags; a create still executing when our read timed out is covered by the resolver's grace.
  consistencyWindowMs: 0,
  // Below Stripe's 25 rps per-endpoint sandbox limit, leaving room for creates.
  queryRatePerSecond: 20,
  // Balance transactions paged through the API, or the itemized balance change report file.
  statementSources: ['api', 'report'],
};

export function stripeCapabilities(settings: StripeCapabilitySettings = {}): GatewayCapabilities {
  return {
    ...STRIPE_CAPABILITIES,
    keyLifetimeMs: settings.keyLifetimeMs ?? STRIPE_CAPABILITIES.keyLifetimeMs,
    queryRatePerSecond: settings.queryRatePerSecond ?? STRIPE_CAPABILITIES.queryRatePerSecond,
  };
}
