import type { AttemptStatus } from '@app/attempts';
import type { ProviderWebhookEvent } from './provider-webhook-event.js';

export type WebhookDisposition =
  /** Move the attempt from its open status to the event's outcome. */
  | { action: 'transition'; to: 'succeeded' | 'failed' }
  /** Nothing to change: the event agrees with what we know, or is only progress. */
  | { action: 'none'; reason: 'already_in_that_state' | 'progress_only' | 'not_actionable' }
  /** The event contradicts what we know: kept and flagged for a person, never applied. */
  | { action: 'flag'; reason: 'contradicts_terminal_status' | 'amount_mismatch' | 'second_provider_charge' };

/**
 * What an event may do to an attempt. Events arrive duplicated and out of order, so a terminal status
 * is never moved: a late `payment_failed` after `succeeded` is evidence of something odd, not an order.
 */
export function decideWebhook(
  event: Pick<ProviderWebhookEvent, 'outcome' | 'amountCents' | 'currency' | 'providerChargeId'>,
  attempt: { status: AttemptStatus; providerChargeId: string | null },
  expected: { amountCents: number; currency: string },
): WebhookDisposition {
  if (event.outcome === null) return { action: 'none', reason: 'not_actionable' };
  const moneyKnown = event.amountCents !== null && event.currency !== null;
  if (moneyKnown && (event.amountCents !== expected.amountCents || event.currency!.toLowerCase() !== expected.currency)) {
    return { action: 'flag', reason: 'amount_mismatch' };
  }
  const otherCharge = event.providerChargeId !== null && attempt.providerChargeId !== null && event.providerChargeId !== attempt.providerChargeId;
  // One attempt, two provider charges: a duplicate charge, whatever the event says about it.
  if (otherCharge && event.outcome === 'succeeded') return { action: 'flag', reason: 'second_provider_charge' };
  if (event.outcome === 'pending') return { action: 'none', reason: 'progress_only' };
  if (attempt.status === 'pending' || attempt.status === 'unknown') return { action: 'transition', to: event.outcome };
  if (attempt.status === event.outcome) return { action: 'none', reason: 'already_in_that_state' };
  return { action: 'flag', reason: 'contradicts_terminal_status' };
}
