import type { GatewayCapabilities, LookupResult, RetrieveResult } from '@app/gateways';

export type ReviewAction = 'succeeded' | 'failed' | 'acknowledge';
export type AttemptStatusSeen = 'pending' | 'unknown' | 'succeeded' | 'failed';

/** Why the facts do not allow what the reviewer asked for; shown to them as is. */
export type Refusal = { ok: false; why: string };
export type Verdict = { ok: true } | Refusal;

const OK: Verdict = { ok: true };
const refuse = (why: string): Refusal => ({ ok: false, why });

/**
 * Which action fits the attempt (DESIGN.md section 8). `succeeded`/`failed` move an `unknown` attempt and
 * nothing else: a `pending` one may be mid-send, a terminal one is never rewritten. `acknowledge` closes an
 * item about an attempt that is already terminal (a late truth) without moving it.
 */
export function actionFitsAttempt(action: ReviewAction, status: AttemptStatusSeen): Verdict {
  if (action === 'acknowledge') {
    return status === 'succeeded' || status === 'failed'
      ? OK
      : refuse(`acknowledge closes an item whose attempt is already terminal; this attempt is ${status}, decide it succeeded or failed`);
  }
  if (status === 'unknown') return OK;
  if (status === 'pending') return refuse(`the attempt is pending (a send may be in flight); only an unknown attempt can be decided ${action}`);
  return refuse(`the attempt is already ${status} and a terminal status is never rewritten; use acknowledge with a follow-up`);
}

/**
 * A `reconciliation_gap` item asks whether a provider's day was reconciled; no attempt moves. A person closes it
 * with `acknowledge` saying what they did: `recorded_externally` (reconciled by hand, outside this service) or
 * `no_action` (nothing to reconcile that day). A run of the day that succeeds closes it by itself.
 */
export function actionFitsGap(action: ReviewAction, followUp: string | undefined): Verdict {
  if (action !== 'acknowledge') return refuse(`this item is about an unreconciled day, not an attempt: ${action} has nothing to move; acknowledge it with recorded_externally or no_action, or run the day`);
  return followUp === 'recorded_externally' || followUp === 'no_action'
    ? OK
    : refuse(`an unreconciled day is closed with recorded_externally (reconciled by hand) or no_action (nothing to reconcile), not ${followUp ?? 'nothing'}`);
}

/** Above the threshold a money-moving decision needs a second reviewer; acknowledging moves no money. */
export function needsSecondReviewer(action: ReviewAction, amountCents: number, thresholdCents: number): boolean {
  return action !== 'acknowledge' && amountCents >= thresholdCents;
}

export interface ExpectedCharge {
  attemptId: string;
  amountCents: number;
  currency: string;
}

/**
 * `succeeded` rests on the provider charge the reviewer named: it must exist, carry our attempt reference,
 * be for exactly our amount and currency, and have succeeded at the provider.
 */
export function verifyNamedCharge(result: RetrieveResult, providerChargeId: string, expected: ExpectedCharge): Verdict {
  if (result.kind === 'not_found') return refuse(`the provider has no charge ${providerChargeId}`);
  if (result.kind === 'error') return refuse(`the provider could not be asked about ${providerChargeId} (${result.message}); nothing is proven, try again`);
  const { charge } = result;
  if (charge.attemptId !== expected.attemptId) {
    return refuse(`provider charge ${providerChargeId} carries reference ${charge.attemptId ?? '(none)'}, not this attempt ${expected.attemptId}`);
  }
  if (charge.amountCents !== expected.amountCents) {
    return refuse(`provider charge ${providerChargeId} is for ${charge.amountCents}, the charge is for ${expected.amountCents}`);
  }
  if (charge.currency.toLowerCase() !== expected.currency.toLowerCase()) {
    return refuse(`provider charge ${providerChargeId} is in ${charge.currency}, the charge is in ${expected.currency}`);
  }
  if (charge.outcome !== 'succeeded') return refuse(`provider charge ${providerChargeId} is ${charge.outcome} at the provider, not succeeded`);
  return OK;
}

/**
 * Whether a person may declare that nothing was charged. `failed` lets a new attempt (a new charge) open, so a
 * mistake is a double charge: only a fresh, strongly consistent "not found", made after the provider can no
 * longer be executing our request, proves it.
 */
export function mayProveAbsence(lookupByReference: GatewayCapabilities['lookupByReference']): Verdict {
  return lookupByReference === 'none'
    ? refuse('this provider cannot look a charge up by our reference, so no query can prove nothing was charged; a person can never fail it')
    : OK;
}

export function verifyAbsence(lookup: LookupResult): Verdict {
  if (lookup.kind === 'error') return refuse(`the provider query failed (${lookup.message}); nothing is proven, try again`);
  if (lookup.kind === 'found') {
    const ids = lookup.charges.map((c) => `${c.providerChargeId} (${c.outcome})`).join(', ');
    return refuse(`the provider shows ${ids} under this attempt's reference`);
  }
  if (!lookup.consistent) return refuse("the provider's lookup can lag behind its charges, so its \"not found\" proves nothing");
  return OK;
}
