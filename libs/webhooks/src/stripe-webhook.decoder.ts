import { verifyStripeSignature } from '@app/gateways';
import type { DecodedWebhook, ProviderWebhookEvent, WebhookDecoder } from './provider-webhook-event.js';

/** Stripe event types we act on, and what each proves about the payment intent. */
const OUTCOME_BY_TYPE: Record<string, ProviderWebhookEvent['outcome']> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'failed',
  'payment_intent.processing': 'pending',
  'payment_intent.created': 'pending',
  'payment_intent.requires_action': 'pending',
};

export class StripeWebhookDecoder implements WebhookDecoder {
  readonly provider = 'stripe';

  constructor(
    private readonly secret: string,
    private readonly toleranceSec: number,
  ) {}

  decode(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSec: number): DecodedWebhook {
    const header = headers['stripe-signature'];
    const check = verifyStripeSignature(rawBody, Array.isArray(header) ? header[0] : header, this.secret, this.toleranceSec, nowSec);
    if (!check.ok) return { ok: false, reason: `signature: ${check.reason}` };
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { ok: false, reason: 'body is not JSON' };
    }
    const event = readEvent(payload);
    return event ? { ok: true, event, payload } : { ok: false, reason: 'body is not a Stripe event' };
  }
}

function readEvent(payload: unknown): ProviderWebhookEvent | null {
  if (!isRecord(payload) || typeof payload.id !== 'string' || typeof payload.type !== 'string') return null;
  const object = isRecord(payload.data) && isRecord(payload.data.object) ? payload.data.object : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const isIntent = object.object === 'payment_intent';
  return {
    eventId: payload.id,
    type: payload.type,
    attemptId: typeof metadata.attempt_id === 'string' ? metadata.attempt_id : null,
    providerChargeId: isIntent && typeof object.id === 'string' ? object.id : null,
    outcome: isIntent ? (OUTCOME_BY_TYPE[payload.type] ?? null) : null,
    amountCents: typeof object.amount === 'number' ? object.amount : null,
    currency: typeof object.currency === 'string' ? object.currency : null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
