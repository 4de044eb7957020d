import type { AttemptStatus } from './attempt-status.js';

/**
 * Something a provider told us about one of our attempts, from any channel: the response to a send, a
 * resolution query, a webhook, a re-check before a new attempt, or a statement line.
 */
export interface ProviderFact {
  /** What the provider says about its charge; null when it says nothing we act on. */
  outcome: 'succeeded' | 'failed' | 'pending' | null;
  providerChargeId: string | null;
  amountCents: number | null;
  currency: string | null;
}

export interface AttemptRecord {
  status: AttemptStatus;
  providerChargeId: string | null;
  /** Who settled it (submit, resolver, webhook, reviewer, reconciliation, sweeper), null while open. */
  resolvedBy: string | null;
}

/** Why a person must look: each is money that may have moved in a way our record does not show. */
export type LateTruthReason =
  | 'amount_mismatch'
  | 'duplicate_provider_charges'
  | 'provider_success_after_failure'
  | 'provider_failure_after_success'
  | 'provider_charge_after_not_found';

export type FactDisposition =
  /** Move the open attempt to what the provider says. */
  | { action: 'transition'; to: 'succeeded' | 'failed' }
  /** Nothing to change: the fact agrees with our record, or is only progress. */
  | { action: 'none'; reason: 'already_in_that_state' | 'progress_only' | 'not_actionable' | 'other_charge_not_successful' }
  /** The fact contradicts our record: never applied, kept as evidence for a person. */
  | { action: 'review'; reason: LateTruthReason };

/**
 * An attempt that we failed (the resolver after the grace, or a person), as opposed to one the provider itself
 * declined in its response. Only such a failure can be contradicted by a charge turning up later, so only it
 * is queried again before a new attempt opens. Whether it learned a provider id does not matter: a webhook can
 * teach one between the resolver's lookup and its transition, and re-checking a known id is one retrieve.
 */
export function failedOnOurJudgement(attempt: Pick<AttemptRecord, 'status' | 'resolvedBy'>): boolean {
  return attempt.status === 'failed' && (attempt.resolvedBy === 'resolver' || attempt.resolvedBy === 'reviewer');
}

/**
 * What one provider fact may do to an attempt (DESIGN.md sections 6 and 7). Facts arrive late, duplicated
 * and out of order, so a terminal status is never moved: a fact that contradicts one goes to a person.
 * Precedence: a different amount, then a second provider charge, then progress, then the status itself.
 */
export function decideProviderFact(fact: ProviderFact, attempt: AttemptRecord, expected: { amountCents: number; currency: string }): FactDisposition {
  if (fact.outcome === null) return { action: 'none', reason: 'not_actionable' };
  const moneyKnown = fact.amountCents !== null && fact.currency !== null;
  if (moneyKnown && (fact.amountCents !== expected.amountCents || fact.currency!.toLowerCase() !== expected.currency.toLowerCase())) {
    return { action: 'review', reason: 'amount_mismatch' };
  }
  const otherCharge = fact.providerChargeId !== null && attempt.providerChargeId !== null && fact.providerChargeId !== attempt.providerChargeId;
  if (otherCharge) {
    // One attempt, two provider charges: a duplicate charge once the other one takes money. Until then it
    // must not touch this attempt (a decline of the other charge says nothing about the recorded one).
    return fact.outcome === 'succeeded' ? { action: 'review', reason: 'duplicate_provider_charges' } : { action: 'none', reason: 'other_charge_not_successful' };
  }
  // A charge that exists for an attempt we failed as "not found" may still take the money.
  if (fact.outcome === 'pending') {
    return failedOnOurJudgement(attempt) && fact.providerChargeId !== null
      ? { action: 'review', reason: 'provider_charge_after_not_found' }
      : { action: 'none', reason: 'progress_only' };
  }
  if (attempt.status === 'pending' || attempt.status === 'unknown') return { action: 'transition', to: fact.outcome };
  if (attempt.status === fact.outcome) return { action: 'none', reason: 'already_in_that_state' };
  return fact.outcome === 'succeeded'
    ? { action: 'review', reason: 'provider_success_after_failure' }
    : { action: 'review', reason: 'provider_failure_after_success' };
}
