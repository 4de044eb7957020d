import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { AppConfig } from '@app/config';
import { AsaasWebhookDecoder, EfiWebhookDecoder, StripeWebhookDecoder } from '@app/gateways';
import { WebhookDecoderRegistry } from './webhook-decoder.registry.js';
import { WebhookIngestService } from './webhook-ingest.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [
    WebhookIngestService,
    {
      provide: WebhookDecoderRegistry,
      inject: [AppConfig],
      // A provider's webhook route exists only when that provider is configured with its own secret: an unconfigured
      // one answers 404 to everything, so a deployment that does not use it cannot be fed forged events through it.
      useFactory: (config: AppConfig) =>
        new WebhookDecoderRegistry([
          ...(config.STRIPE_WEBHOOK_SECRET ? [new StripeWebhookDecoder(config.STRIPE_WEBHOOK_SECRET, config.STRIPE_WEBHOOK_TOLERANCE_S)] : []),
          ...(config.ASAAS_WEBHOOK_TOKEN ? [new AsaasWebhookDecoder(config.ASAAS_WEBHOOK_TOKEN)] : []),
          ...(config.EFI_WEBHOOK_HMAC || config.EFI_WEBHOOK_CA_PATH
            ? [new EfiWebhookDecoder({ hmac: config.EFI_WEBHOOK_HMAC, requireClientCertificate: config.EFI_WEBHOOK_CA_PATH !== undefined })]
            : []),
        ]),
    },
  ],
  exports: [WebhookIngestService],
})
export class WebhooksModule {}
