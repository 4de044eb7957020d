/**
 * What a reconciliation can find, worst first. `provider_only`: money taken at the provider with no
 * succeeded attempt of ours. `duplicate_charge`: a second provider charge for a charge that already
 * succeeded (across all its attempts); `duplicate_transfer`, its money-out twin: a second transfer for a payout
 * that already succeeded. `missing_at_provider`: our success absent from its day's statement.
 * The mismatches: the provider took a different amount or currency than the charge asked for.
 * The refund kinds say the same of money given back: a refund at the provider with no succeeded refund attempt
 * of ours (none, or one we recorded as failed or unknown), our succeeded refund absent from the statement, and a
 * refund of another amount (or currency) than ours, and our succeeded refund the provider shows cancelled (the
 * customer never got the money back): a person decides, the attempt is never rewritten.
 * `pix_return_unmatched`: money a payee's bank sent back on a Pix that is not a transfer of ours that left (no
 * such attempt, one we hold failed or unknown, or more back than was sent): nothing is credited on its word.
 * `chargeback`, `chargeback_reversal`, `custody_block`: money the provider took back from a payment (a chargeback,
 * a Pix the payer's bank took back), gave back, or holds (and released): each line for a person, with evidence.
 */
export const DIVERGENCE_KINDS = [
  'provider_only',
  'duplicate_charge',
  'duplicate_transfer',
  'missing_at_provider',
  'amount_mismatch',
  'currency_mismatch',
  'refund_provider_only',
  'refund_missing_at_provider',
  'refund_amount_mismatch',
  'refund_cancelled_at_provider',
  'pix_return_unmatched',
  'chargeback',
  'chargeback_reversal',
  'custody_block',
] as const;
export type DivergenceKind = (typeof DIVERGENCE_KINDS)[number];

export function emptyDivergenceCounts(): Record<DivergenceKind, number> {
  return Object.fromEntries(DIVERGENCE_KINDS.map((kind) => [kind, 0])) as Record<DivergenceKind, number>;
}
