import type { ProviderWebhookEvent } from './provider-webhook.event.js';

export type DecodedWebhook =
  /** `more`: further events of one delivery (Efí batches several Pix in one notification). */
  | { ok: true; event: ProviderWebhookEvent; more?: ProviderWebhookEvent[]; payload: unknown }
  | { ok: false; reason: string };

/** How the delivery arrived, for providers that authenticate by the connection or the URL instead of a signature. */
export interface WebhookTransport {
  query: Record<string, string | undefined>;
  /** The delivery came over TLS with a client certificate our server verified. */
  tlsClientAuthorized: boolean;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A header a provider sends once; a repeated one counts by its first value. */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The webhook port: one decoder per provider authenticates a delivery and reads its events. Pure, so each is
 * tested without HTTP; an abstract class, like the gateway ports, so the type is also what tests and modules name.
 */
export abstract class WebhookDecoder {
  abstract readonly provider: string;
  abstract decode(rawBody: Buffer, headers: WebhookHeaders, nowSec: number, transport?: WebhookTransport): DecodedWebhook;
}
