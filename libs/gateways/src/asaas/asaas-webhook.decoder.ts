import { isRecord, parseJson } from '@app/common';
import { matchesSharedSecret } from '../webhook/shared-secret.js';
import { reaisToCents } from './asaas-amount.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';
import type { MoneyMovedBack, ProviderWebhookEvent } from '../webhook/provider-webhook.event.js';
import { type DecodedWebhook, headerValue, WebhookDecoder, type WebhookHeaders } from '../webhook/webhook-decoder.port.js';

/**
 * Asaas events: `{ id, event, dateCreated, payment: {...} }`, authenticated only by the static token in
 * `asaas-access-token`. What the event proves is read from the payment it carries (its status, or its
 * deletion), the same mapping the resolver uses, so a webhook and a query can never disagree about one
 * payment. Our reference is the payment's `externalReference`.
 */
export class AsaasWebhookDecoder extends WebhookDecoder {
  readonly provider = 'asaas';

  constructor(private readonly token: string | undefined) {
    super();
  }

  decode(rawBody: Buffer, headers: WebhookHeaders, _nowSec: number): DecodedWebhook {
    if (!matchesSharedSecret(headerValue(headers, 'asaas-access-token'), this.token)) return { ok: false, reason: 'access token: missing or wrong' };
    const payload = parseJson(rawBody.toString('utf8'));
    if (payload === undefined) return { ok: false, reason: 'body is not JSON' };
    const event = readEvent(payload);
    return event ? { ok: true, event, payload } : { ok: false, reason: 'body is not an Asaas event' };
  }
}

const REFUND_EVENTS = new Set(['PAYMENT_REFUNDED', 'PAYMENT_PARTIALLY_REFUNDED', 'PAYMENT_REFUND_IN_PROGRESS']);
const CHARGEBACK_EVENTS = new Set(['PAYMENT_CHARGEBACK_REQUESTED', 'PAYMENT_CHARGEBACK_DISPUTE', 'PAYMENT_AWAITING_CHARGEBACK_REVERSAL']);

/**
 * The payment's refunded total from its `refunds[]` (those not CANCELLED), so our own refunds can explain it;
 * null when the list is missing or any value is unreadable: then a person looks.
 */
function refundedCents(payment: Record<string, unknown> | null): number | null {
  if (!payment || !Array.isArray(payment.refunds)) return null;
  let total = 0;
  for (const refund of payment.refunds as unknown[]) {
    if (!isRecord(refund)) return null;
    if (refund.status === 'CANCELLED') continue;
    const cents = reaisToCents(refund.value);
    if (Number.isNaN(cents)) return null;
    total += cents;
  }
  return total;
}

/** A refund or a chargeback: money going back after a success, which goes to a person like Stripe's. */
function readMoneyMovedBack(type: string, payment: Record<string, unknown> | null): MoneyMovedBack | null {
  const status = payment && typeof payment.status === 'string' ? payment.status : null;
  if (REFUND_EVENTS.has(type)) return { kind: 'refund', refundedCents: refundedCents(payment), refundId: null, status };
  // No chargeback event closes one (the outcome comes as the payment's status later), so none needs ordering.
  if (CHARGEBACK_EVENTS.has(type)) return { kind: 'dispute', disputeId: null, status: status ?? type, closed: false, occurredAt: null };
  return null;
}

function readEvent(payload: unknown): ProviderWebhookEvent | null {
  if (!isRecord(payload) || typeof payload.id !== 'string' || typeof payload.event !== 'string') return null;
  const payment = isRecord(payload.payment) ? payload.payment : null;
  const paymentId = payment && typeof payment.id === 'string' ? payment.id : null;
  const deleted = payload.event === 'PAYMENT_DELETED' || payment?.deleted === true;
  const amountCents = payment ? reaisToCents(payment.value) : Number.NaN;
  const afterSuccess = readMoneyMovedBack(payload.event, payment);
  return {
    eventId: payload.id,
    type: payload.event,
    attemptId: payment && typeof payment.externalReference === 'string' ? payment.externalReference : null,
    providerChargeId: paymentId,
    // Money moving back is not an outcome of the attempt: it is recorded and reviewed as such.
    outcome: paymentId && !afterSuccess ? mapAsaasPaymentStatus(payment!.status, deleted) : null,
    // An unreadable value is kept as a mismatch (NaN never equals our amount): a person looks at it.
    amountCents: payment && payment.value !== undefined ? amountCents : null,
    currency: payment ? 'brl' : null,
    afterSuccess,
  };
}

