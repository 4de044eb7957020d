import type { AppConfig } from '@app/config';
import { ProviderPorts } from '../provider-ports.js';
import { AsaasGateway } from './asaas.gateway.js';

/** Asaas as one registered provider: its adapter built from configuration, taking charges and refunds. */
export function asaasProvider(config: AppConfig): ProviderPorts {
  const asaas = new AsaasGateway({
    apiBase: config.ASAAS_API_BASE,
    apiKey: config.ASAAS_API_KEY ?? '',
    connectTimeoutMs: config.PROVIDER_CONNECT_TIMEOUT_MS,
    readTimeoutMs: config.PROVIDER_READ_TIMEOUT_MS,
    consistencyWindowMs: config.ASAAS_CONSISTENCY_WINDOW_MS,
    queryRatePerSecond: config.ASAAS_QUERY_RATE_PER_S,
    timeZone: config.RECONCILIATION_TZ,
  });
  return new ProviderPorts(asaas.provider, asaas.capabilities, { charge: asaas, refund: asaas });
}
