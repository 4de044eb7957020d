import { describe, expect, it } from 'vitest';
import type { LookupResult, ProviderCharge, RetrieveResult } from '@app/gateways';
import { actionFitsAttempt, actionFitsGap, mayProveAbsence, needsSecondReviewer, verifyAbsence, verifyNamedCharge, type AttemptStatusSeen, type ReviewAction } from './review-decision-rules.js';

const fits: Array<[ReviewAction, AttemptStatusSeen, boolean]> = [
  ['succeeded', 'unknown', true],
  ['failed', 'unknown', true],
  ['succeeded', 'pending', false],
  ['failed', 'pending', false],
  ['succeeded', 'succeeded', false],
  ['failed', 'failed', false],
  ['failed', 'succeeded', false],
  ['acknowledge', 'succeeded', true],
  ['acknowledge', 'failed', true],
  ['acknowledge', 'unknown', false],
  ['acknowledge', 'pending', false],
];

describe('actionFitsAttempt', () => {
  it.each(fits)('%s on a %s attempt → allowed %s', (action, status, allowed) => {
    expect(actionFitsAttempt(action, status).ok).toBe(allowed);
  });
});

describe('actionFitsGap: closing a reconciliation_gap item', () => {
  it.each([
    ['acknowledge', 'recorded_externally', true],
    ['acknowledge', 'no_action', true],
    ['acknowledge', 'refund_needed', false],
    ['acknowledge', 'keep_capture', false],
    ['acknowledge', undefined, false],
    ['succeeded', undefined, false],
    ['failed', undefined, false],
  ] as const)('%s with %s → allowed %s', (action, followUp, allowed) => {
    expect(actionFitsGap(action, followUp).ok).toBe(allowed);
  });
});

describe('needsSecondReviewer', () => {
  it.each([
    ['succeeded', 100_000, true],
    ['failed', 100_000, true],
    ['failed', 99_999, false],
    ['acknowledge', 10_000_000, false],
  ] as Array<[ReviewAction, number, boolean]>)('%s of %i cents at a 100000 threshold → %s', (action, amount, expected) => {
    expect(needsSecondReviewer(action, amount, 100_000)).toBe(expected);
  });
});

const expected = { attemptId: 'att_1', amountCents: 4990, currency: 'usd' };
const charge = (over: Partial<ProviderCharge> = {}): RetrieveResult => ({
  kind: 'found',
  durationMs: 3,
  charge: { providerChargeId: 'pi_1', outcome: 'succeeded', amountCents: 4990, currency: 'usd', attemptId: 'att_1', raw: {}, ...over },
});

describe('verifyNamedCharge', () => {
  it.each([
    ['the matching succeeded charge', charge(), null],
    ['a charge that does not exist', { kind: 'not_found', durationMs: 1 }, 'has no charge'],
    ['a failed query', { kind: 'error', message: 'answered 500', httpStatus: 500, durationMs: 1 }, 'nothing is proven'],
    ['another attempt’s charge', charge({ attemptId: 'att_2' }), 'carries reference att_2'],
    ['a charge with no reference', charge({ attemptId: null }), 'carries reference (none)'],
    ['a different amount', charge({ amountCents: 4991 }), 'is for 4991'],
    ['a different currency', charge({ currency: 'brl' }), 'is in brl'],
    ['a charge still processing', charge({ outcome: 'pending' }), 'is pending at the provider'],
    ['a declined charge', charge({ outcome: 'failed' }), 'is failed at the provider'],
    ['the same currency in upper case', charge({ currency: 'USD' }), null],
  ] as Array<[string, RetrieveResult, string | null]>)('%s', (_name, result, why) => {
    const verdict = verifyNamedCharge(result, 'pi_1', expected);
    if (why === null) expect(verdict).toEqual({ ok: true });
    else expect(verdict.ok === false && verdict.why).toContain(why);
  });
});

describe('absence for a `failed` decision', () => {
  it.each([
    ['consistent_list', true],
    ['lagging_search', true],
    ['none', false],
  ] as const)('a provider whose lookup by reference is %s may prove absence: %s', (capability, allowed) => {
    expect(mayProveAbsence(capability).ok).toBe(allowed);
  });

  it.each([
    ['a consistent not found', { kind: 'not_found', consistent: true, durationMs: 1 }, null],
    ['a lagging not found', { kind: 'not_found', consistent: false, durationMs: 1 }, 'can lag'],
    ['a charge found', { kind: 'found', consistent: true, durationMs: 1, charges: [{ providerChargeId: 'pi_9', outcome: 'failed', amountCents: 1, currency: 'usd', attemptId: 'att_1', raw: {} }] }, 'pi_9 (failed)'],
    ['a failed query', { kind: 'error', message: 'timeout', httpStatus: null, durationMs: 1 }, 'query failed'],
  ] as Array<[string, LookupResult, string | null]>)('%s', (_name, lookup, why) => {
    const verdict = verifyAbsence(lookup);
    if (why === null) expect(verdict).toEqual({ ok: true });
    else expect(verdict.ok === false && verdict.why).toContain(why);
  });
});
