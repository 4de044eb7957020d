import type { WebhookDecoder } from '@app/gateways';
import { UnknownWebhookProviderError } from './webhooks.errors.js';

/** Decoders by provider name, the DI token the ingest depends on (GatewayRegistry's twin for webhooks). */
export class WebhookDecoderRegistry {
  private readonly byProvider: Map<string, WebhookDecoder>;

  constructor(decoders: WebhookDecoder[]) {
    this.byProvider = new Map(decoders.map((d) => [d.provider, d]));
  }

  get(provider: string): WebhookDecoder {
    const decoder = this.byProvider.get(provider);
    if (!decoder) throw new UnknownWebhookProviderError(provider);
    return decoder;
  }
}
