import type Stripe from 'stripe';
import { isRecord, parseJson } from '@app/common';
import { mapStripeRefundStatus } from './stripe-refund-status.js';
import { verifyStripeSignature } from './stripe-webhook.signature.js';
import { wire, type Wire } from './stripe-wire.js';
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

/**
 * Dispute statuses that close it, from the official types' `Dispute.Status` (pinned API version): `won`, `lost`,
 * `warning_closed` (an inquiry that never became a dispute) and `prevented` (stopped before it was filed). A
 * `lost` one can still be appealed (`appeal_needs_response`, `appeal_under_review`): open again, not closed.
 */
const CLOSED_DISPUTE_STATUSES: ReadonlySet<string> = new Set(['won', 'lost', 'warning_closed', 'prevented'] satisfies Stripe.Dispute.Status[]);

function readEvent(payload: unknown): ProviderWebhookEvent | null {
  const event = wire<Stripe.Event>(payload);
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string') return null;
  const data = wire<Stripe.Event.Data>(event.data);
  // The event's object, by the fields every object it may be (intent, charge, refund, dispute) has in common.
  const object = (wire<Stripe.PaymentIntent | Stripe.Charge | Stripe.Refund | Stripe.Dispute>(data?.object) ?? {}) as Record<string, unknown> &
    Wire<Stripe.PaymentIntent | Stripe.Charge | Stripe.Refund | Stripe.Dispute>;
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const isIntent = object.object === 'payment_intent';
  // Charges, refunds and disputes name their payment intent, which is the id our attempts carry.
  const intentId = isIntent ? stringOrNull(object.id) : stringOrNull(object.payment_intent);
  return {
    eventId: event.id,
    type: event.type,
    attemptId: stringOrNull(metadata.attempt_id),
    providerChargeId: intentId,
    outcome: isIntent ? (OUTCOME_BY_TYPE[event.type] ?? null) : null,
    amountCents: isIntent && typeof object.amount === 'number' ? object.amount : null,
    currency: isIntent && typeof object.currency === 'string' ? object.currency : null,
    afterSuccess: readMoneyMovedBack(event.type, object, typeof event.created === 'number' ? new Date(event.created * 1000) : null),
    refund: readRefundFact(event.type, object),
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

function readMoneyMovedBack(type: string, object: Record<string, unknown>, created: Date | null): MoneyMovedBack | null {
  if (type === 'charge.refunded' && object.object === 'charge') {
    const charge = object as Wire<Stripe.Charge>;
    return { kind: 'refund', refundedCents: typeof charge.amount_refunded === 'number' ? charge.amount_refunded : null, refundId: null, status: null };
  }
  if (isRefundEvent(type) && object.object === 'refund') {
    return { kind: 'refund', refundedCents: null, refundId: stringOrNull(object.id), status: stringOrNull(object.status) };
  }
  if (type.startsWith('charge.dispute.') && object.object === 'dispute' && typeof object.status === 'string') {
    return { kind: 'dispute', disputeId: stringOrNull(object.id), status: object.status, closed: type === 'charge.dispute.closed' || CLOSED_DISPUTE_STATUSES.has(object.status), occurredAt: created };
  }
  return null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

