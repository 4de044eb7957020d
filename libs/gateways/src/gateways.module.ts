import { readFileSync } from 'node:fs';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { loadEfiClientCertificate } from './efi/efi-client.certificate.js';
import { EfiPixGateway } from './efi/efi-pix.gateway.js';
import { PixPayoutGateway } from './pix-payout-gateway.port.js';
import { GatewayRegistry } from './gateway.registry.js';
import { PaymentGateway } from './payment-gateway.port.js';
import { StripeGateway } from './stripe/stripe.gateway.js';
import { AsaasGateway } from './asaas/asaas.gateway.js';

/**
 * The only place adapters are built from configuration. Tests replace a provider by overriding
 * GatewayRegistry; services never construct an adapter themselves.
 */
@Global()
@Module({
  providers: [
    {
      provide: StripeGateway,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new StripeGateway({
          apiBase: config.STRIPE_API_BASE,
          secretKey: config.STRIPE_SECRET_KEY ?? '',
          connectTimeoutMs: config.PROVIDER_CONNECT_TIMEOUT_MS,
          readTimeoutMs: config.PROVIDER_READ_TIMEOUT_MS,
          keyLifetimeMs: config.STRIPE_KEY_LIFETIME_MS,
          queryRatePerSecond: config.STRIPE_QUERY_RATE_PER_S,
          reportPollMs: config.RECONCILIATION_REPORT_POLL_MS,
          reportTimeoutMs: config.RECONCILIATION_REPORT_TIMEOUT_MS,
        }),
    },
    {
      provide: AsaasGateway,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new AsaasGateway({
          apiBase: config.ASAAS_API_BASE,
          apiKey: config.ASAAS_API_KEY ?? '',
          connectTimeoutMs: config.PROVIDER_CONNECT_TIMEOUT_MS,
          readTimeoutMs: config.PROVIDER_READ_TIMEOUT_MS,
          consistencyWindowMs: config.ASAAS_CONSISTENCY_WINDOW_MS,
          queryRatePerSecond: config.ASAAS_QUERY_RATE_PER_S,
          timeZone: config.RECONCILIATION_TZ,
        }),
    },
    {
      provide: GatewayRegistry,
      inject: [StripeGateway, AsaasGateway, PixPayoutGateway],
      useFactory: (stripe: StripeGateway, asaas: AsaasGateway, pix: PixPayoutGateway) => new GatewayRegistry([stripe, asaas], 'stripe', [pix]),
    },
    // The port as a DI token: code that only ever needs the default provider depends on PaymentGateway.
    { provide: PaymentGateway, inject: [StripeGateway], useFactory: (stripe: StripeGateway) => stripe },
    // Pix cash-out (payouts). Built even when unconfigured: nothing calls it until a payout is sent, and the
    // config refuses a real secret without a certificate and webhook authentication.
    {
      provide: PixPayoutGateway,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new EfiPixGateway({
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
        }),
    },
  ],
  exports: [GatewayRegistry, PaymentGateway, PixPayoutGateway],
})
export class GatewaysModule {}
