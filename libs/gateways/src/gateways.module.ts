import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { asaasProvider } from './asaas/asaas.provider.js';
import { efiPixGateway, efiProvider } from './efi/efi.provider.js';
import { GatewayRegistry } from './gateway.registry.js';
import { PixPayoutGateway } from './pix-payout-gateway.port.js';
import { stripeProvider } from './stripe/stripe.provider.js';

/**
 * The only place adapters are built from configuration (each provider's folder says how). Tests replace a
 * provider by overriding GatewayRegistry; services never construct an adapter themselves.
 */
@Global()
@Module({
  providers: [
    // Pix cash-out (payouts) is also injected by itself: payouts only ever send through Efí.
    { provide: PixPayoutGateway, inject: [AppConfig], useFactory: efiPixGateway },
    {
      provide: GatewayRegistry,
      inject: [AppConfig, PixPayoutGateway],
      useFactory: (config: AppConfig, pix: PixPayoutGateway) => new GatewayRegistry([stripeProvider(config), asaasProvider(config), efiProvider(pix)], 'stripe'),
    },
  ],
  exports: [GatewayRegistry, PixPayoutGateway],
})
export class GatewaysModule {}
