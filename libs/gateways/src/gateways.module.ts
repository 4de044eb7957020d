import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { GatewayRegistry } from './gateway-registry.js';
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
          consistencyWindowMs: config.STRIPE_CONSISTENCY_WINDOW_MS,
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
      inject: [StripeGateway, AsaasGateway],
      useFactory: (stripe: StripeGateway, asaas: AsaasGateway) => new GatewayRegistry([stripe, asaas], 'stripe'),
    },
    // The port as a DI token: code that only ever needs the default provider depends on PaymentGateway.
    { provide: PaymentGateway, inject: [StripeGateway], useFactory: (stripe: StripeGateway) => stripe },
  ],
  exports: [GatewayRegistry, PaymentGateway],
})
export class GatewaysModule {}
