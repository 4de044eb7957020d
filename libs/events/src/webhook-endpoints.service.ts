import { Injectable } from '@nestjs/common';
import { merchantScope, type Actor } from '@app/auth';
import { AppConfig } from '@app/config';
import { EndpointSecretCipher } from './endpoint-secret.cipher.js';
import { PING_EVENT_TYPE, type EventType } from './event-types.js';
import { WebhookEndpointDisabledError, WebhookEndpointLimitError, WebhookEndpointMerchantRequiredError, WebhookEndpointNotFoundError } from './events.errors.js';
import { WebhookEndpointStore, type EndpointChanges } from './webhook-endpoint.store.js';
import { toWebhookEndpointView, type WebhookEndpointView, type WebhookEndpointWithSecret } from './webhook-endpoint.view.js';
import { newWebhookSecret } from './webhook-secret.js';
import { checkWebhookUrl } from './webhook-url.guard.js';

/** Every event fans out to each of a merchant's endpoints: Stripe's bound, which no receiver setup needs more than. */
const MAX_ENDPOINTS_PER_MERCHANT = 16;

export interface NewWebhookEndpoint {
  url: string;
  /** null or absent: every event type. */
  events?: EventType[] | null;
  description?: string | null;
}

export interface PingSent {
  eventId: string;
  endpointId: string;
  type: typeof PING_EVENT_TYPE;
}

/**
 * A merchant's webhook endpoints. A URL is checked (https to a public address) before anything is written; a
 * secret is generated here, sealed before it reaches the store, and answered in the clear only by create and
 * rotate-secret. Reads and changes are scoped by the caller's merchant in the store's SQL.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly cipher: EndpointSecretCipher,
    private readonly config: AppConfig,
  ) {}

  async create(actor: Actor, input: NewWebhookEndpoint): Promise<WebhookEndpointWithSecret> {
    const merchantId = this.secretHolder(actor, 'creating a webhook endpoint');
    const url = await this.checkedUrl(input.url);
    const secret = newWebhookSecret();
    const row = await this.store.insert(
      merchantId,
      { url, description: input.description ?? null, eventTypes: input.events ?? null, secretCiphertext: this.cipher.encrypt(secret) },
      MAX_ENDPOINTS_PER_MERCHANT,
    );
    if (!row) throw new WebhookEndpointLimitError(MAX_ENDPOINTS_PER_MERCHANT);
    return { ...toWebhookEndpointView(row), secret };
  }

  async list(actor: Actor): Promise<WebhookEndpointView[]> {
    return (await this.store.list(merchantScope(actor))).map(toWebhookEndpointView);
  }

  async view(actor: Actor, id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(found(id, await this.store.find(id, merchantScope(actor))));
  }

  /** Nothing to change is a read: the endpoint as it is (still a 404 for another merchant's). */
  async update(actor: Actor, id: string, changes: EndpointChanges): Promise<WebhookEndpointView> {
    if (Object.values(changes).every((value) => value === undefined)) return this.view(actor, id);
    const url = changes.url === undefined ? undefined : await this.checkedUrl(changes.url);
    return toWebhookEndpointView(found(id, await this.store.update(id, merchantScope(actor), { ...changes, url })));
  }

  async remove(actor: Actor, id: string): Promise<void> {
    if (!(await this.store.softDelete(id, merchantScope(actor)))) throw new WebhookEndpointNotFoundError(id);
  }

  async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpointWithSecret> {
    const merchantId = this.secretHolder(actor, 'rotating a webhook secret');
    const secret = newWebhookSecret();
    const row = found(id, await this.store.rotateSecret(id, merchantId, this.cipher.encrypt(secret)));
    return { ...toWebhookEndpointView(row), secret };
  }

  /** A `ping` event for this endpoint alone; the deliverer sends it like any other event. */
  async ping(actor: Actor, id: string): Promise<PingSent> {
    const sent = found(id, await this.store.ping(id, merchantScope(actor), (row) => ({ ...toWebhookEndpointView(row) })));
    if (sent.eventId === null) throw new WebhookEndpointDisabledError(id, sent.row.disabled_reason);
    return { eventId: sent.eventId, endpointId: id, type: PING_EVENT_TYPE };
  }

  /** The stored form of a URL: what the guard parsed, so the deliverer calls exactly what was checked. */
  private async checkedUrl(raw: string): Promise<string> {
    return (await checkWebhookUrl(raw, this.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true')).url.href;
  }

  /** Only a merchant may mint a secret: it is shown once, to whoever asked. */
  private secretHolder(actor: Actor, what: string): string {
    const merchantId = merchantScope(actor);
    if (merchantId === null) throw new WebhookEndpointMerchantRequiredError(what);
    return merchantId;
  }
}

function found<T>(id: string, value: T | null): T {
  if (value === null) throw new WebhookEndpointNotFoundError(id);
  return value;
}
