export { WebhooksModule } from './webhooks.module.js';
export { WebhookIngestService, type IngestResult } from './webhook-ingest.service.js';
export * from './webhooks.errors.js';
