import type { ReviewItemState } from '@app/database';

/** What a reviewer sees of an item in the queue and after every action on it. */
export interface ReviewItemView {
  id: string;
  reason: string;
  /** As of now: a claim past its expiry reads `open`, with no claimant. */
  state: ReviewItemState;
  /** Null for a `reconciliation_gap` item: it is about a provider's day (`day`), not an attempt. */
  attemptId: string | null;
  attemptStatus: string | null;
  /** For a `reconciliation_gap` item: the day (in RECONCILIATION_TZ) that left the catch-up window with no succeeded run. */
  day: string | null;
  /**
   * The provider charge that captured this attempt after we had failed it: the customer paid. Acknowledge it with
   * `keep_capture` (fulfil the order) or `refund_capture` (refund it through the charge's own refund path).
   */
  lateCaptureProviderChargeId: string | null;
  /** Whose money this is: the charge's merchant, or the payout account's; null for a proposal refund (no charge of ours). */
  merchantId: string | null;
  merchantName: string | null;
  /** Null for a payout's item (see payoutId), and for a proposal refund's (no charge of ours). */
  chargeId: string | null;
  payoutId: string | null;
  provider: string;
  /** Null for a `reconciliation_gap` item (a day, no money of its own). */
  amountCents: number | null;
  currency: string | null;
  /** Null for a payout's item. */
  customerId: string | null;
  openedAt: string;
  claimedBy: string | null;
  claimExpiresAt: string | null;
  /** A succeeded/failed decision on this amount needs a second reviewer. */
  fourEyes: boolean;
  /** The decision made (or, while awaiting_second, proposed), or null. */
  decision: ReviewDecisionView | null;
  confirmedBy: string | null;
  confirmedAt: string | null;
  closedAt: string | null;
}

export interface ReviewDecisionView {
  action: string;
  reason: string | null;
  providerChargeId: string | null;
  followUp: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
}

/** One row of the item query below, as node-pg returns it. */
export interface ReviewItemRow {
  id: string;
  reason: string;
  state: ReviewItemState;
  attempt_id: string | null;
  attempt_status: string | null;
  gap_day: string | null;
  late_capture_provider_charge_id: string | null;
  merchant_id: string | null;
  merchant_name: string | null;
  charge_id: string | null;
  refund_id: string | null;
  payout_id: string | null;
  provider: string;
  amount_cents: string | null;
  currency: string | null;
  customer_id: string | null;
  opened_at: Date;
  claimed_by: string | null;
  claim_expires_at: Date | null;
  decision: string | null;
  decision_reason: string | null;
  decision_provider_charge_id: string | null;
  follow_up: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  closed_at: Date | null;
  /** Keyset cursor position, to the microsecond. */
  cursor_at: string;
}

/** An item about an attempt (every reason but `reconciliation_gap`): its attempt and money columns are set. */
export type AttemptItemRow = ReviewItemRow & { attempt_id: string; attempt_status: string; amount_cents: string; currency: string };

export function isAttemptItem(row: ReviewItemRow): row is AttemptItemRow {
  return row.attempt_id !== null;
}

/** An expired claim is an open item: computed with the database clock, so every process agrees. */
export const EFFECTIVE_STATE = `CASE WHEN r.state = 'claimed' AND r.claim_expires_at <= now() THEN 'open' ELSE r.state END`;

export const ITEM_SELECT = `
  SELECT r.id, r.reason, ${EFFECTIVE_STATE} AS state, r.attempt_id, a.status AS attempt_status, r.gap_day::text AS gap_day, a.late_capture_provider_charge_id, m.id AS merchant_id, m.name AS merchant_name, a.charge_id, a.refund_id, a.payout_id, COALESCE(a.provider, r.gap_provider) AS provider,
         COALESCE(c.amount_cents, p.amount_cents, rf.amount_cents) AS amount_cents, COALESCE(c.currency, p.currency, rf.currency) AS currency, c.customer_id, r.created_at AS opened_at,
         CASE WHEN ${EFFECTIVE_STATE} = 'claimed' THEN r.claimed_by END AS claimed_by,
         CASE WHEN ${EFFECTIVE_STATE} = 'claimed' THEN r.claim_expires_at END AS claim_expires_at,
         r.decision, r.decision_reason, r.decision_provider_charge_id, r.follow_up, r.decided_by, r.decided_at,
         r.confirmed_by, r.confirmed_at, r.closed_at,
         to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
    FROM review_items r
    -- A reconciliation_gap item has no attempt: it is about gap_provider's gap_day.
    LEFT JOIN attempts a ON a.id = r.attempt_id
    LEFT JOIN charges c ON c.id = a.charge_id
    LEFT JOIN payouts p ON p.id = a.payout_id
    LEFT JOIN ledger_accounts la ON la.id = p.account_id
    LEFT JOIN merchants m ON m.id = COALESCE(c.merchant_id, la.merchant_id)
    -- A refund of an executed proposal belongs to no charge of ours: its own refund row carries the money.
    LEFT JOIN refunds rf ON rf.id = a.refund_id AND a.charge_id IS NULL`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toReviewItemView(row: ReviewItemRow, fourEyesThresholdCents: number): ReviewItemView {
  const amountCents = row.amount_cents === null ? null : Number(row.amount_cents);
  return {
    id: row.id,
    reason: row.reason,
    state: row.state,
    attemptId: row.attempt_id,
    attemptStatus: row.attempt_status,
    day: row.gap_day,
    lateCaptureProviderChargeId: row.late_capture_provider_charge_id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    chargeId: row.charge_id,
    payoutId: row.payout_id,
    provider: row.provider,
    amountCents,
    currency: row.currency,
    customerId: row.customer_id,
    openedAt: row.opened_at.toISOString(),
    claimedBy: row.claimed_by,
    claimExpiresAt: iso(row.claim_expires_at),
    fourEyes: amountCents !== null && amountCents >= fourEyesThresholdCents,
    decision: row.decision
      ? {
          action: row.decision,
          reason: row.decision_reason,
          providerChargeId: row.decision_provider_charge_id,
          followUp: row.follow_up,
          decidedBy: row.decided_by,
          decidedAt: iso(row.decided_at),
        }
      : null,
    confirmedBy: row.confirmed_by,
    confirmedAt: iso(row.confirmed_at),
    closedAt: iso(row.closed_at),
  };
}
