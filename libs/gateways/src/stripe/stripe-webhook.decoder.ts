import { isRecord, parseJson } from '@app/common';
import { mapStripeRefundStatus } from './stripe-refund-status.js';
import { verifyStripeSignature } from './stripe-webhook.signature.js';
import type { MoneyMovedBack, ProviderWebhookEvent, RefundFact } from '../webhook/provider-webhook.event.js';
import { type DecodedWebhook, headerValue, WebhookDecoder, type WebhookHeaders } from '../webhook/webhook-decoder.port.js';

/** Stripe event types we act on, and what each proves about the payment intent. */
const OUTCOME_BY_TYPE: Record<string, ProviderWebhookEvent['outcome']> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'failed',
  'payment_intent.processing': 'pending',
  'payment_intent.created': 'pending',
  'payment_intent.requires_action': 'pending',
};

export class StripeWebhookDecoder extends WebhookDecoder {
  readonly provider = 'stripe';

  constructor(
    private readonly secret: string,
    private readonly toleranceSec: number,
  ) {
    super();
  }

  decode(rawBody: Buffer, headers: WebhookHeaders, nowSec: number): DecodedWebhook {
    const check = verifyStripeSignature(rawBody, headerValue(headers, 'stripe-signature'), this.secret, this.toleranceSec, nowSec);
    if (!check.ok) return { ok: false, reason: `signature: ${check.reason}` };
    const payload = parseJson(rawBody.toString('utf8'));
    if (payload === undefined) return { ok: false, reason: 'body is not JSON' };
    const event = readEvent(payload);
    return event ? { ok: true, event, payload } : { ok: false, reason: 'body is not a Stripe event' };
  }
}

/** Dispute statuses after which Stripe changes nothing more. */
const CLOSED_DISPUTE_STATUSES = new Set(['won', 'lost', 'warning_closed', 'charge_refunded']);

function readEvent(payload: unknown): ProviderWebhookEvent | null {
  if (!isRecord(payload) || typeof payload.id !== 'string' || typeof payload.type !== 'string') return null;
  const object = isRecord(payload.data) && isRecord(payload.data.object) ? payload.data.object : {};
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const isIntent = object.object === 'payment_intent';
  // Charges, refunds and disputes name their payment intent, which is the id our attempts carry.
  const intentId = isIntent ? stringOrNull(object.id) : stringOrNull(object.payment_intent);
  return {
    eventId: payload.id,
    type: payload.type,
    attemptId: stringOrNull(metadata.attempt_id),
    providerChargeId: intentId,
    outcome: isIntent ? (OUTCOME_BY_TYPE[payload.type] ?? null) : null,
    amountCents: isIntent && typeof object.amount === 'number' ? object.amount : null,
    currency: isIntent && typeof object.currency === 'string' ? object.currency : null,
    afterSuccess: readMoneyMovedBack(payload.type, object),
    refund: readRefundFact(payload.type, object),
  };
}

/** `refund.*` and `charge.refund.*` events carry the refund: what it says about our refund attempt. */
function readRefundFact(type: string, object: Record<string, unknown>): RefundFact | null {
  if (!isRefundEvent(type) || object.object !== 'refund' || typeof object.id !== 'string') return null;
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return {
    providerRefundId: object.id,
    attemptId: stringOrNull(metadata.refund_attempt_id),
    outcome: mapStripeRefundStatus(object.status),
    amountCents: typeof object.amount === 'number' ? object.amount : null,
    currency: typeof object.currency === 'string' ? object.currency : null,
  };
}

function isRefundEvent(type: string): boolean {
  return type.startsWith('charge.refund.') || type.startsWith('refund.');
}

function readMoneyMovedBack(type: string, object: Record<string, unknown>): MoneyMovedBack | null {
  if (type === 'charge.refunded' && object.object === 'charge') {
    return { kind: 'refund', refundedCents: typeof object.amount_refunded === 'number' ? object.amount_refunded : null, refundId: null, status: null };
  }
  if (isRefundEvent(type) && object.object === 'refund') {
    return { kind: 'refund', refundedCents: null, refundId: stringOrNull(object.id), status: stringOrNull(object.status) };
  }
  if (type.startsWith('charge.dispute.') && object.object === 'dispute' && typeof object.status === 'string') {
    return { kind: 'dispute', disputeId: stringOrNull(object.id), status: object.status, closed: type === 'charge.dispute.closed' || CLOSED_DISPUTE_STATUSES.has(object.status) };
  }
  return null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

