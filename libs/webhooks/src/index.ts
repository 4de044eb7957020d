export { WebhooksModule } from './webhooks.module.js';
export { WebhookIngestService, type IngestResult } from './webhook-ingest.service.js';
export { StripeWebhookDecoder } from './stripe-webhook.decoder.js';
export { AsaasWebhookDecoder } from './asaas-webhook.decoder.js';
export { EfiWebhookDecoder, type EfiWebhookAuth } from './efi-webhook.decoder.js';
export type { ProviderWebhookEvent, WebhookDecoder, DecodedWebhook, WebhookTransport } from './provider-webhook-event.js';
export * from './webhooks.errors.js';
