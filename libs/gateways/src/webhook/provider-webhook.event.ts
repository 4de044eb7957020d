/** A provider event reduced to what our rules need; the full body is stored beside it as evidence. */
export interface ProviderWebhookEvent {
  eventId: string;
  type: string;
  /** Our reference, echoed back from the provider's metadata / external reference. */
  attemptId: string | null;
  providerChargeId: string | null;
  /** What the event says about the charge, or null when it says nothing we act on. */
  outcome: 'succeeded' | 'failed' | 'pending' | null;
  amountCents: number | null;
  currency: string | null;
  /** Money moving back after a success (a refund or a dispute), which our attempt statuses do not show. */
  afterSuccess: MoneyMovedBack | null;
  /**
   * A refund object: applied to our refund attempt when it carries our reference or the refund's id is one an
   * attempt of ours recorded; only a refund that is not ours falls back to `afterSuccess` (a person looks).
   */
  refund?: RefundFact | null;
}

export interface RefundFact {
  providerRefundId: string;
  /** Our refund attempt's id, echoed from the provider's metadata. */
  attemptId: string | null;
  outcome: 'succeeded' | 'failed' | 'pending' | null;
  amountCents: number | null;
  currency: string | null;
}

export type MoneyMovedBack =
  /** `refundedCents` is the provider's running total when the event carries it (Stripe's charge.refunded). */
  | { kind: 'refund'; refundedCents: number | null; refundId: string | null; status: string | null }
  /** `occurredAt`: when the provider says the status was set (its event's time), null when the event carries none. */
  | { kind: 'dispute'; disputeId: string | null; status: string; closed: boolean; occurredAt: Date | null };
