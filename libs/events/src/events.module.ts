import { Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { EndpointSecretCipher } from './endpoint-secret.cipher.js';
import { EndpointSigningSecrets } from './endpoint-signing-secrets.js';
import { EventDeliveries } from './delivery/event-deliveries.query.js';
import { WebhookEndpointStore } from './webhook-endpoint.store.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

@Module({
  providers: [
    // Built from the settings once; without EVENTS_ENCRYPTION_KEY it still boots, and refuses to seal or open (503).
    { provide: EndpointSecretCipher, useFactory: (config: AppConfig) => new EndpointSecretCipher(config.EVENTS_ENCRYPTION_KEY), inject: [AppConfig] },
    EndpointSigningSecrets,
    WebhookEndpointStore,
    WebhookEndpointsService,
    EventDeliveries,
  ],
  exports: [WebhookEndpointsService, EndpointSigningSecrets, EventDeliveries],
})
export class EventsModule {}
