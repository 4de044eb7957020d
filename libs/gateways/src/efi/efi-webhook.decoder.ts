import { isRecord, parseJson } from '@app/common';
import { matchesSharedSecret } from '../webhook/shared-secret.js';
import { valorToCents } from './efi-amount.js';
import { attemptIdFromIdEnvio } from './efi-id-envio.js';
import { mapEfiPixStatus } from './efi-pix-status.js';
import type { ProviderWebhookEvent } from '../webhook/provider-webhook.event.js';
import { type DecodedWebhook, WebhookDecoder, type WebhookHeaders, type WebhookTransport } from '../webhook/webhook-decoder.port.js';

export interface EfiWebhookAuth {
  /** EFI_WEBHOOK_HMAC: the secret `hmac` query parameter of the registered webhook URL. */
  hmac?: string;
  /** EFI_WEBHOOK_CA_PATH is set: the delivery must arrive over TLS with a client certificate our server verified. */
  requireClientCertificate: boolean;
}

/**
 * Efí's sent-Pix webhook: `{ pix: [ { endToEndId, valor, status, gnExtras: { idEnvio } }, ... ] }`, possibly
 * several per delivery. Efí signs nothing; it authenticates by mutual TLS (provider-contracts.md §4b). So a
 * delivery is accepted when it came over a TLS connection whose client certificate our server verified against
 * EFI_WEBHOOK_CA_PATH, or, behind a proxy that terminates TLS, when the URL's secret `hmac` parameter matches
 * EFI_WEBHOOK_HMAC (constant time). With neither configured the decoder is not registered at all, so the route
 * answers 404 (WebhooksModule). Each Pix becomes one event, deduplicated by (endToEndId, status).
 */
export class EfiWebhookDecoder extends WebhookDecoder {
  readonly provider = 'efi';

  constructor(private readonly auth: EfiWebhookAuth) {
    super();
  }

  decode(rawBody: Buffer, _headers: WebhookHeaders, _nowSec: number, transport?: WebhookTransport): DecodedWebhook {
    const refusal = this.authenticate(transport);
    if (refusal) return { ok: false, reason: refusal };
    const payload = parseJson(rawBody.toString('utf8'));
    if (payload === undefined) return { ok: false, reason: 'body is not JSON' };
    const list = isRecord(payload) && Array.isArray(payload.pix) ? payload.pix : null;
    if (!list || list.length === 0) return { ok: false, reason: 'body is not an Efí Pix notification' };
    const events = list.map(readPix);
    if (events.some((e) => e === null)) return { ok: false, reason: 'a Pix in the notification has no endToEndId or idEnvio' };
    return { ok: true, event: events[0]!, more: events.slice(1) as ProviderWebhookEvent[], payload };
  }

  private authenticate(transport: WebhookTransport | undefined): string | null {
    const byHmac = this.auth.hmac !== undefined;
    // Never reached through the module (an unconfigured Efí has no route), and never an open door if constructed so.
    if (!byHmac && !this.auth.requireClientCertificate) return 'no webhook authentication is configured for Efí';
    if (this.auth.requireClientCertificate && transport?.tlsClientAuthorized === true) return null;
    if (byHmac && matchesSharedSecret(transport?.query.hmac, this.auth.hmac)) return null;
    return byHmac ? 'hmac: missing or wrong' : 'client certificate: missing or not trusted';
  }
}

function readPix(entry: unknown): ProviderWebhookEvent | null {
  if (!isRecord(entry)) return null;
  const extras = isRecord(entry.gnExtras) ? entry.gnExtras : {};
  const idEnvio = typeof extras.idEnvio === 'string' ? extras.idEnvio : null;
  const endToEndId = typeof entry.endToEndId === 'string' && entry.endToEndId.length > 0 ? entry.endToEndId : null;
  if (!endToEndId && !idEnvio) return null;
  const status = typeof entry.status === 'string' ? entry.status : 'unknown';
  return {
    // Efí gives a notification no id: the same Pix reaching the same status is the same fact.
    eventId: `${endToEndId ?? idEnvio}:${status}`,
    type: `pix.${status}`,
    attemptId: idEnvio ? attemptIdFromIdEnvio(idEnvio) : null,
    providerChargeId: endToEndId,
    outcome: mapEfiPixStatus(entry.status),
    // An unreadable valor is kept as a mismatch (NaN never equals our amount): a person looks at it.
    amountCents: entry.valor === undefined ? null : (valorToCents(entry.valor) ?? Number.NaN),
    currency: 'brl',
    afterSuccess: null,
  };
}

