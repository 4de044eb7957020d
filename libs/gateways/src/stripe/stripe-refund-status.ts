import type { ProviderOutcome } from '../gateway-call.result.js';

/** Every Refund status Stripe documents (provider-contracts.md §1). */
export type StripeRefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

const OUTCOME_BY_STATUS: Record<StripeRefundStatus, ProviderOutcome> = {
  pending: 'pending',
  requires_action: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
};

/** Maps a Refund status onto our outcome; an unrecognised status returns null (it proves nothing). */
export function mapStripeRefundStatus(status: unknown): ProviderOutcome | null {
  if (typeof status !== 'string' || !Object.hasOwn(OUTCOME_BY_STATUS, status)) return null;
  return OUTCOME_BY_STATUS[status as StripeRefundStatus];
}
