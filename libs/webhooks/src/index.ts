export { WebhooksModule } from './webhooks.module.js';
export { WebhookIngestService, type IngestResult } from './webhook-ingest.service.js';
export { StripeWebhookDecoder } from './stripe-webhook.decoder.js';
export { AsaasWebhookDecoder } from './asaas-webhook.decoder.js';
export { EfiWebhookDecoder, type EfiWebhookAuth } from './efi-webhook.decoder.js';
export type { ProviderWebhookEvent } from './provider-webhook.event.js';
export { WebhookDecoder, type DecodedWebhook, type WebhookHeaders, type WebhookTransport } from './webhook-decoder.port.js';
export * from './webhooks.errors.js';
