/** Every event a merchant can receive; `emit_event` in the MerchantEvents migration is what writes them. */
export const EVENT_TYPES = [
  'charge.processing',
  'charge.succeeded',
  'charge.failed',
  'charge.in_review',
  'charge.captured_late',
  'charge.partially_refunded',
  'charge.refunded',
  'refund.succeeded',
  'refund.failed',
  'payout.sent',
  'payout.failed',
  'payout.in_review',
  'account.credited',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by `POST /webhook-endpoints/:id/test` to that endpoint only; never in the feed. */
export const PING_EVENT_TYPE = 'ping';

/** What a receiver gets, and what the feed lists. */
export interface MerchantEvent {
  id: string;
  type: EventType | typeof PING_EVENT_TYPE;
  createdAt: string;
  merchantId: string;
  objectVersion: number;
  data: { object: Record<string, unknown> };
}
