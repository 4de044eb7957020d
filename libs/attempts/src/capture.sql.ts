/**
 * SQL for "this charge attempt is the charge's capture": it succeeded, or we failed it and the provider captured it
 * later. The predicate of `uq_attempts_one_capture_per_charge` (migration 1764680180000), written once so
 * every query asks it the same way (and the planner can use the index). `a` is the attempt's alias.
 */
export const isCapture = (a: string): string => `(${a}.status = 'succeeded' OR ${a}.late_captured_at IS NOT NULL)`;

/** SQL for the provider charge that holds the customer's money, for a capturing attempt `a`. */
export const capturedProviderChargeId = (a: string): string =>
  `CASE WHEN ${a}.status = 'succeeded' THEN ${a}.provider_ref ELSE ${a}.late_capture_provider_charge_id END`;
