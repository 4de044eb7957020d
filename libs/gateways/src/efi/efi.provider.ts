import { readFileSync } from 'node:fs';
import type { AppConfig } from '@app/config';
import type { PixPayoutGateway } from '../pix-payout-gateway.port.js';
import { ProviderPorts } from '../provider-ports.js';
import { loadEfiClientCertificate } from './efi-client.certificate.js';
import { EfiPixGateway } from './efi-pix.gateway.js';

/**
 * Efí's Pix cash-out adapter, built from configuration. Built even when unconfigured: nothing calls it until a
 * payout is sent, and the config refuses a real secret without a certificate and webhook authentication.
 */
export function efiPixGateway(config: AppConfig): EfiPixGateway {
  return new EfiPixGateway({
    apiBase: config.EFI_API_BASE,
    clientId: config.EFI_CLIENT_ID ?? '',
    clientSecret: config.EFI_CLIENT_SECRET ?? '',
    payerPixKey: config.EFI_PIX_KEY ?? '',
    connectTimeoutMs: config.PROVIDER_CONNECT_TIMEOUT_MS,
    readTimeoutMs: config.PROVIDER_READ_TIMEOUT_MS,
    tls: {
      ...(config.EFI_CERT_PATH ? loadEfiClientCertificate(config.EFI_CERT_PATH) : {}),
      ...(config.EFI_CA_PATH ? { ca: readFileSync(config.EFI_CA_PATH) } : {}),
    },
  });
}

/** Efí as one registered provider: Pix payouts only. */
export function efiProvider(pix: PixPayoutGateway): ProviderPorts {
  return new ProviderPorts(pix.provider, pix.capabilities, { payout: pix });
}
