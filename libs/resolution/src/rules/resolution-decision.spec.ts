import type { LookupResult, ProviderCharge, ProviderOutcome } from '@app/gateways';
import { describe, expect, it } from 'vitest';
import { decideResolution, type ResolutionDecision, type ResolutionInput } from './resolution-decision.js';

const MINUTE = 60_000;

function charge(id: string, outcome: ProviderOutcome, money: { amountCents?: number; currency?: string; payableUntil?: string } = {}): ProviderCharge {
  return { providerChargeId: id, outcome, amountCents: money.amountCents ?? 4990, currency: money.currency ?? 'brl', attemptId: 'att_1', raw: {}, payableUntil: money.payableUntil ?? null };
}
const found = (...charges: ProviderCharge[]): LookupResult => ({ kind: 'found', charges, consistent: true, durationMs: 80 });
const notFound = (consistent: boolean): LookupResult => ({ kind: 'not_found', consistent, durationMs: 80 });
const queryError: LookupResult = { kind: 'error', message: 'read timeout', httpStatus: null, durationMs: 15_000 };

/** Try 1 of 10, one minute after the send ended; a lagging search has a 60-minute window, a consistent list a 2-minute grace. */
function input(overrides: Partial<ResolutionInput>): ResolutionInput {
  return {
    lookup: notFound(false),
    msSinceSendEnded: MINUTE,
    capabilities: { consistencyWindowMs: 60 * MINUTE, lookupByReference: 'lagging_search' },
    consistentGraceMs: 2 * MINUTE,
    tryNumber: 1,
    maxTries: 10,
    expected: { amountCents: 4990, currency: 'brl' },
    ...overrides,
  };
}

const last = { tryNumber: 10 };
const review = (reason: string, providerChargeIds: string[] = [], lastWaitReason: string | null = null) => ({ action: 'review', reason, providerChargeIds, lastWaitReason });

const table: [string, Partial<ResolutionInput>, ResolutionDecision | ReturnType<typeof review>][] = [
  // Found, exactly one charge.
  ['one succeeded charge: apply it', { lookup: found(charge('pi_1', 'succeeded')) }, { action: 'apply', status: 'succeeded', providerChargeId: 'pi_1' }],
  ['one failed charge: apply it', { lookup: found(charge('pi_1', 'failed')) }, { action: 'apply', status: 'failed', providerChargeId: 'pi_1' }],
  ['one succeeded charge on the last try: still apply it', { ...last, lookup: found(charge('pi_1', 'succeeded')) }, { action: 'apply', status: 'succeeded', providerChargeId: 'pi_1' }],
  ['the same charge listed twice by paging: one charge, apply it', { lookup: found(charge('pi_1', 'succeeded'), charge('pi_1', 'succeeded')) }, { action: 'apply', status: 'succeeded', providerChargeId: 'pi_1' }],
  ['currency in another case: same money, apply it', { lookup: found(charge('pi_1', 'succeeded', { currency: 'BRL' })) }, { action: 'apply', status: 'succeeded', providerChargeId: 'pi_1' }],
  ['one charge the provider has not finished: wait', { lookup: found(charge('pi_1', 'pending')) }, { action: 'wait', reason: 'provider_pending' }],
  ['one unfinished charge on the last try: review with its id', { ...last, lookup: found(charge('pi_1', 'pending')) }, review('tries_exhausted', ['pi_1'], 'provider_pending')],
  // A created boleto or Pix waiting for its payer: awaiting payment, whatever the try.
  ['one charge waiting for its payer until a due date: await payment', { lookup: found(charge('pay_1', 'pending', { payableUntil: '2026-12-10' })) }, { action: 'await_payment', providerChargeId: 'pay_1', payableUntil: '2026-12-10' }],
  ['one charge waiting for its payer, on the last try: still await, no review', { ...last, lookup: found(charge('pay_1', 'pending', { payableUntil: '2026-12-10' })) }, { action: 'await_payment', providerChargeId: 'pay_1', payableUntil: '2026-12-10' }],
  ['a waiting charge of another amount: review, not await', { lookup: found(charge('pay_1', 'pending', { amountCents: 1, payableUntil: '2026-12-10' })) }, review('amount_mismatch', ['pay_1'])],
  ['two waiting charges under one reference: a duplicate, review', { lookup: found(charge('pay_1', 'pending', { payableUntil: '2026-12-10' }), charge('pay_2', 'pending', { payableUntil: '2026-12-10' })) }, review('duplicate_provider_charges', ['pay_1', 'pay_2'])],
  // Found, but something is wrong: a person decides at once.
  ['two charges for one attempt, one succeeded: review as duplicate at once', { lookup: found(charge('pi_1', 'succeeded'), charge('pi_2', 'failed')) }, review('duplicate_provider_charges', ['pi_1', 'pi_2'])],
  ['two succeeded charges on the last try: still a duplicate', { ...last, lookup: found(charge('pi_1', 'succeeded'), charge('pi_2', 'succeeded')) }, review('duplicate_provider_charges', ['pi_1', 'pi_2'])],
  ['a different amount: review', { lookup: found(charge('pi_1', 'succeeded', { amountCents: 5990 })) }, review('amount_mismatch', ['pi_1'])],
  ['a different currency: review', { lookup: found(charge('pi_1', 'succeeded', { currency: 'usd' })) }, review('amount_mismatch', ['pi_1'])],
  ['a different amount on a failed charge: review all the same', { lookup: found(charge('pi_1', 'failed', { amountCents: 1 })) }, review('amount_mismatch', ['pi_1'])],
  ['a different amount on an unfinished charge: review, not wait', { lookup: found(charge('pi_1', 'pending', { amountCents: 1 })) }, review('amount_mismatch', ['pi_1'])],
  // Not found by a strongly consistent list: only the processing grace applies.
  ['consistent list, inside the processing grace: wait', { lookup: notFound(true), msSinceSendEnded: MINUTE }, { action: 'wait', reason: 'not_found_inside_window' }],
  ['consistent list, past the grace: fail', { lookup: notFound(true), msSinceSendEnded: 2 * MINUTE }, { action: 'fail_not_found' }],
  ['consistent list answering found with no charges, past the grace: fail', { lookup: found(), msSinceSendEnded: 3 * MINUTE }, { action: 'fail_not_found' }],
  // Not found by a lagging search: the whole consistency window applies.
  ['lagging search, inside the window: wait', { lookup: notFound(false), msSinceSendEnded: 59 * MINUTE }, { action: 'wait', reason: 'not_found_inside_window' }],
  ['lagging search, exactly at the window: fail', { lookup: notFound(false), msSinceSendEnded: 60 * MINUTE }, { action: 'fail_not_found' }],
  ['lagging search, past the window on the last try: fail', { ...last, lookup: notFound(false), msSinceSendEnded: 3 * 60 * MINUTE }, { action: 'fail_not_found' }],
  ['lagging search, inside the window on the last try: review', { ...last, lookup: notFound(false), msSinceSendEnded: 30 * MINUTE }, review('tries_exhausted', [], 'not_found_inside_window')],
  ['lagging search, window counted from the end of the last send, not creation: wait', { lookup: notFound(false), msSinceSendEnded: 20 * MINUTE }, { action: 'wait', reason: 'not_found_inside_window' }],
  ['lagging search whose window is shorter than the processing grace: the grace still applies, wait', { lookup: notFound(false), msSinceSendEnded: 3 * MINUTE, capabilities: { consistencyWindowMs: 2 * MINUTE, lookupByReference: 'lagging_search' }, consistentGraceMs: 5 * MINUTE }, { action: 'wait', reason: 'not_found_inside_window' }],
  ['lagging search past both its window and the grace: fail', { lookup: notFound(false), msSinceSendEnded: 5 * MINUTE, capabilities: { consistencyWindowMs: 2 * MINUTE, lookupByReference: 'lagging_search' }, consistentGraceMs: 5 * MINUTE }, { action: 'fail_not_found' }],
  ['lagging search, clock reads before the send: wait', { lookup: notFound(false), msSinceSendEnded: -MINUTE }, { action: 'wait', reason: 'not_found_inside_window' }],
  ['a provider without lookup by reference: absence proves nothing, review', { lookup: notFound(true), msSinceSendEnded: 3 * 60 * MINUTE, capabilities: { consistencyWindowMs: 0, lookupByReference: 'none' } }, review('absence_unprovable')],
  // The query itself failed: it proves nothing either way.
  ['the query failed: wait', { lookup: queryError }, { action: 'wait', reason: 'lookup_failed' }],
  ['the query failed long past the window: wait, never fail', { lookup: queryError, msSinceSendEnded: 3 * 60 * MINUTE }, { action: 'wait', reason: 'lookup_failed' }],
  ['the query failed on the last try: review', { ...last, lookup: queryError }, review('tries_exhausted', [], 'lookup_failed')],
  ['the query failed beyond the last try: review', { tryNumber: 11, lookup: queryError }, review('tries_exhausted', [], 'lookup_failed')],
];

describe('decideResolution', () => {
  it.each(table)('%s', (_name, overrides, expected) => {
    expect(decideResolution(input(overrides))).toEqual(expected);
  });
});
