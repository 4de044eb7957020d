import type { GatewayCapabilities } from '../gateway.capabilities.js';
import type { ProviderCurrencies } from '../provider-currencies.js';

export interface AsaasCapabilitySettings {
  consistencyWindowMs?: number;
  queryRatePerSecond?: number;
}

/** Asaas's guarantees (provider-contracts.md §3): none of the help Stripe gives. */
export const ASAAS_CAPABILITIES: GatewayCapabilities = {
  // No idempotency header at all: every request that arrives creates a payment.
  nativeIdempotency: false,
  // There is no key to outlive; with no native idempotency no rule reads this.
  keyLifetimeMs: 0,
  // `GET /v3/payments?externalReference=` is a list, but its consistency right after a create is not
  // promised: a miss counts only once the consistency window has passed.
  lookupByReference: 'lagging_search',
  consistencyWindowMs: 120_000,
  // The account quota is 25,000 requests per 12 hours (about 0.6/s sustained) with bursts allowed;
  // 2/s drains a backlog without spending the day's quota in an hour.
  queryRatePerSecond: 2,
  // The payments received in a date range and the refunds its extrato shows, paged; Asaas has no report file.
  statementSources: ['api'],
  statementByDate: true,
};

export function asaasCapabilities(settings: AsaasCapabilitySettings = {}): GatewayCapabilities {
  return {
    ...ASAAS_CAPABILITIES,
    consistencyWindowMs: settings.consistencyWindowMs ?? ASAAS_CAPABILITIES.consistencyWindowMs,
    queryRatePerSecond: settings.queryRatePerSecond ?? ASAAS_CAPABILITIES.queryRatePerSecond,
  };
}

/**
 * Asaas moves reais only: `value` is in reais and the API has no currency field at all. No minimum is checked
 * here: Asaas' minimums differ per billing type and are its own refusal to make.
 */
export const ASAAS_CURRENCIES: ProviderCurrencies = new Map([['brl', {}]]);
