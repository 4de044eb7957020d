import type { GatewayCapabilities, LookupResult, ProviderCharge } from '@app/gateways';
import { absenceProvableAfterMs } from './absence-proof.js';
import { isExhausted } from './resolution-schedule.js';

export interface ResolutionInput {
  lookup: LookupResult;
  /**
   * Milliseconds since the attempt's last send ended (its response was recorded, or its lease ran out),
   * read from the database's clock so that no process's clock can shorten the wait. A charge can only
   * appear at the provider while or after a request is on the wire, so every window counts from here.
   */
  msSinceSendEnded: number;
  capabilities: Pick<GatewayCapabilities, 'consistencyWindowMs' | 'lookupByReference'>;
  /** For strongly consistent lookups: time the provider may still be processing a request it received. */
  consistentGraceMs: number;
  /** The try that made this lookup, from 1. */
  tryNumber: number;
  maxTries: number;
  expected: { amountCents: number; currency: string };
}

export type WaitReason = 'provider_pending' | 'not_found_inside_window' | 'lookup_failed';
export type ReviewReason = 'duplicate_provider_charges' | 'amount_mismatch' | 'absence_unprovable' | 'tries_exhausted';

export type ResolutionDecision =
  | { action: 'apply'; status: 'succeeded' | 'failed'; providerChargeId: string }
  | { action: 'wait'; reason: WaitReason }
  | { action: 'fail_not_found' }
  /** A created charge waiting for its payer until `payableUntil` (a due date): no unknown, so no try counts. */
  | { action: 'await_payment'; providerChargeId: string; payableUntil: string }
  /** `providerChargeIds` and `lastWaitReason` are evidence for the person who decides. */
  | { action: 'review'; reason: ReviewReason; providerChargeIds: string[]; lastWaitReason: WaitReason | null };

/**
 * What one resolution query means for an `unknown` attempt (DESIGN.md section 6). Precedence:
 * 1. More than one provider charge for the attempt: review at once, even if one succeeded. Applying
 *    `succeeded` would bury the second charge; a person must refund it.
 * 2. One charge whose amount or currency differs from ours: review at once, whatever its status.
 * 3. One charge with a final status: apply it, even on the last try. One that waits for its payer until a due
 *    date (a boleto, a Pix) is awaiting payment, not unknown: the tries do not run out on it.
 * 4. Nothing found, by a provider that cannot look up by reference: review, absence proves nothing.
 * 5. Nothing found after the consistency window: fail, even on the last try.
 * 6. Anything else (provider still pending, inside the window, the query failed): wait, or review
 *    when this was the last try.
 */
export function decideResolution(input: ResolutionInput): ResolutionDecision {
  const decision = decideFromLookup(input);
  if (decision.action !== 'wait' || !isExhausted(input.tryNumber, input.maxTries)) return decision;
  return review('tries_exhausted', foundIds(input.lookup), decision.reason);
}

function decideFromLookup(input: ResolutionInput): ResolutionDecision {
  const { lookup } = input;
  if (lookup.kind === 'error') return { action: 'wait', reason: 'lookup_failed' };
  const charges = lookup.kind === 'found' ? distinctCharges(lookup.charges) : [];
  if (charges.length > 1) return review('duplicate_provider_charges', charges.map((c) => c.providerChargeId), null);
  if (charges.length === 1) return decideFoundCharge(charges[0], input.expected);

  if (input.capabilities.lookupByReference === 'none') return review('absence_unprovable', [], null);
  const windowMs = absenceProvableAfterMs({ consistent: lookup.consistent, consistentGraceMs: input.consistentGraceMs, capabilities: input.capabilities });
  const windowPassed = input.msSinceSendEnded >= windowMs;
  return windowPassed ? { action: 'fail_not_found' } : { action: 'wait', reason: 'not_found_inside_window' };
}

function decideFoundCharge(charge: ProviderCharge, expected: ResolutionInput['expected']): ResolutionDecision {
  const sameMoney =
    charge.amountCents === expected.amountCents && charge.currency.toLowerCase() === expected.currency.toLowerCase();
  if (!sameMoney) return review('amount_mismatch', [charge.providerChargeId], null);
  if (charge.outcome === 'pending' && charge.payableUntil) return { action: 'await_payment', providerChargeId: charge.providerChargeId, payableUntil: charge.payableUntil };
  if (charge.outcome === 'pending') return { action: 'wait', reason: 'provider_pending' };
  return { action: 'apply', status: charge.outcome, providerChargeId: charge.providerChargeId };
}

/** Paged lists can return the same charge twice; that is one charge, not a duplicate. */
function distinctCharges(charges: readonly ProviderCharge[]): ProviderCharge[] {
  const byId = new Map<string, ProviderCharge>();
  for (const charge of charges) if (!byId.has(charge.providerChargeId)) byId.set(charge.providerChargeId, charge);
  return [...byId.values()];
}

function foundIds(lookup: LookupResult): string[] {
  return lookup.kind === 'found' ? distinctCharges(lookup.charges).map((c) => c.providerChargeId) : [];
}

function review(reason: ReviewReason, providerChargeIds: string[], lastWaitReason: WaitReason | null): ResolutionDecision {
  return { action: 'review', reason, providerChargeIds, lastWaitReason };
}
