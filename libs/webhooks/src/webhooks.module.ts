import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { AppConfig } from '@app/config';
import { AsaasWebhookDecoder } from './asaas-webhook.decoder.js';
import { EfiWebhookDecoder } from './efi-webhook.decoder.js';
import { StripeWebhookDecoder } from './stripe-webhook.decoder.js';
import { WebhookDecoderRegistry } from './webhook-decoder.registry.js';
import { WebhookIngestService } from './webhook-ingest.service.js';

@Module({
  imports: [AttemptsModule],
  providers: [
    WebhookIngestService,
    {
      provide: WebhookDecoderRegistry,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new WebhookDecoderRegistry([
          new StripeWebhookDecoder(config.STRIPE_WEBHOOK_SECRET, config.STRIPE_WEBHOOK_TOLERANCE_S),
          new AsaasWebhookDecoder(config.ASAAS_WEBHOOK_TOKEN),
          new EfiWebhookDecoder({ hmac: config.EFI_WEBHOOK_HMAC, requireClientCertificate: config.EFI_WEBHOOK_CA_PATH !== undefined }),
        ]),
    },
  ],
  exports: [WebhookIngestService],
})
export class WebhooksModule {}
