// Words a finance person reads for the codes the api sends.

export const REASONS = {
  tries_exhausted: ['Provider never gave a definite answer', 'The attempt is unknown: every query to the provider failed or stayed inconclusive until the tries ran out.'],
  absence_unprovable: ['Provider cannot prove nothing was charged', 'This provider cannot look a charge up by our reference, so "not found" proves nothing.'],
  duplicate_provider_charges: ['Charged twice at the provider', 'The provider holds more than one charge for this charge. One of them likely needs a refund.'],
  amount_mismatch: ['Provider charged a different amount', 'The provider charge does not match our amount or currency.'],
  provider_success_after_failure: ['Provider took money after we failed the attempt', 'The provider reported a success for an attempt we had already recorded as failed.'],
  provider_failure_after_success: ['Provider reported a failure after success', 'The provider reported a failure for an attempt we had recorded as succeeded.'],
  provider_charge_after_not_found: ['Provider charge appeared after "not found"', 'A charge appeared at the provider after we had concluded it did not exist.'],
  provider_refund: ['Provider refunded a charge', 'The provider refunded money for this attempt.'],
  dispute_opened: ['Customer opened a dispute', 'The customer disputed this charge with their bank.'],
  payload_mismatch: ['Stored payload does not match its key', 'The attempt\'s stored request no longer matches the hash it was sent with.'],
  reconciliation_gap: ['A day was never reconciled', 'This provider\'s day left the catch-up window with no successful reconciliation run. Run it again (an admin, on the Reconciliation page or POST /reconciliation/runs: a success closes this item), or close it saying how it was reconciled.'],
};
export const STATES = { open: 'Open', claimed: 'Claimed', awaiting_second: 'Awaiting second reviewer', closed: 'Closed' };
export const FOLLOW_UPS = {
  refund_needed: 'Refund needed',
  no_action: 'No action',
  recorded_externally: 'Recorded externally',
  keep_capture: 'Keep the payment: fulfil the order',
  refund_capture: 'Refund the payment to the customer',
};
/** A late capture (the customer paid through an attempt we had failed) is kept or refunded, nothing else. */
export const LATE_CAPTURE_FOLLOW_UPS = ['keep_capture', 'refund_capture', 'recorded_externally'];
export const PLAIN_FOLLOW_UPS = ['refund_needed', 'no_action', 'recorded_externally'];
/** An unreconciled day: reconciled by hand outside this service, or nothing to reconcile that day. */
export const GAP_FOLLOW_UPS = ['recorded_externally', 'no_action'];
export const AGES = [['', 'Any age'], ['15m', 'Older than 15 min'], ['1h', 'Older than 1 hour'], ['4h', 'Older than 4 hours'], ['1d', 'Older than 1 day'], ['3d', 'Older than 3 days']];

export const DIVERGENCES = {
  provider_only: 'Money at the provider with no charge of ours',
  duplicate_charge: 'A second provider charge for one of our charges',
  missing_at_provider: 'Our success the provider does not show',
  amount_mismatch: 'Amount differs from our charge',
  currency_mismatch: 'Currency differs from our charge',
  refund_provider_only: 'Refund at the provider with no refund of ours that succeeded',
  refund_missing_at_provider: 'Our refund the provider does not show',
  refund_amount_mismatch: 'Refunded amount differs from our refund',
};

/** The kinds a payout gateway's sent-Pix statement yields: money that left, not money taken. */
export const PAYOUT_DIVERGENCES = {
  provider_only: 'Pix sent at the provider with no payout of ours that succeeded',
  duplicate_transfer: 'A second Pix sent for one of our payouts',
  missing_at_provider: 'Our sent payout the provider does not show as executed',
  amount_mismatch: 'Amount sent differs from our payout',
  currency_mismatch: 'Currency sent differs from our payout',
};

/** The latest run of a day still open in the catch-up window. */
export const DAY_STATUSES = {
  not_tried: 'Not tried yet',
  failed: 'Failed: retried after a backoff',
  waiting: 'Waiting for the provider\'s data',
  running: 'Running now',
};

export const reasonLabel = (reason) => REASONS[reason]?.[0] ?? reason.replace(/_/g, ' ');
