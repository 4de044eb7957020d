import type { LookupResult, RetrieveResult } from './provider-lookup.result.js';

/** What a lookup proved, small enough to keep as evidence (never the provider's whole body). */
export function summariseLookup(lookup: LookupResult): Record<string, unknown> {
  if (lookup.kind === 'error') return { kind: 'error', message: lookup.message, httpStatus: lookup.httpStatus };
  if (lookup.kind === 'not_found') return { kind: 'not_found', consistent: lookup.consistent };
  return {
    kind: 'found',
    consistent: lookup.consistent,
    charges: lookup.charges.map((c) => ({ providerChargeId: c.providerChargeId, outcome: c.outcome, amountCents: c.amountCents, currency: c.currency })),
  };
}

/** What a retrieve by id proved, as evidence. */
export function summariseRetrieve(result: RetrieveResult): Record<string, unknown> {
  if (result.kind === 'error') return { kind: 'error', message: result.message, httpStatus: result.httpStatus };
  if (result.kind === 'not_found') return { kind: 'not_found' };
  const { providerChargeId, outcome, amountCents, currency, attemptId } = result.charge;
  return { kind: 'found', providerChargeId, outcome, amountCents, currency, attemptId };
}
