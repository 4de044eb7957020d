import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from './attempt-status.js';
import { decideOpening } from './opening-decision.js';

const a = (status: AttemptStatus, resolvedBy: string | null = null, recheckedAt: Date | null = null, lateCapturedAt: Date | null = null) => ({ status, resolvedBy, recheckedAt, lateCapturedAt });
const lateCaptured = (resolvedBy: string, recheckedAt: Date | null = null) => a('failed', resolvedBy, recheckedAt, new Date());
const lateRefunded = (resolvedBy: string) => ({ ...a('failed', resolvedBy), lateRefundedAt: new Date() });

describe('decideOpening', () => {
  it.each([
    ['no attempt yet', [], false, 'create'],
    ['an open pending attempt is reused, review or not', [a('failed', 'submit'), a('pending')], true, 'reuse'],
    ['an unknown attempt is reused', [a('unknown')], false, 'reuse'],
    ['a person is deciding', [a('failed', 'submit')], true, 'in_review'],
    ['a success settles the charge', [a('failed', 'submit'), a('succeeded', 'submit')], false, 'settled'],
    ['a declined attempt lets a new one open', [a('failed', 'submit')], false, 'create'],
    ['failed as not found by the resolver: query it again first', [a('failed', 'resolver')], false, 'recheck'],
    ['failed by a reviewer: query it again first', [a('failed', 'reviewer')], false, 'recheck'],
    ['already re-checked: a new attempt may open', [a('failed', 'resolver', new Date())], false, 'create'],
    ['failed as not found, then declined: the first is queried again before a third opens', [a('failed', 'resolver'), a('failed', 'submit')], false, 'recheck'],
    ['a late capture of a failed attempt: paid, no new attempt', [lateCaptured('resolver'), a('failed', 'submit')], false, 'captured'],
    ['a late capture outlives the review a person closed, re-check or not', [lateCaptured('resolver', new Date())], false, 'captured'],
    ['a late capture wins over an open review item', [lateCaptured('resolver'), a('failed', 'submit')], true, 'captured'],
    ['a refund the provider made after we failed it: made, no new attempt, review or not', [lateRefunded('submit')], false, 'settled'],
    ['a late refund wins over an open review item and a later decline', [lateRefunded('resolver'), a('failed', 'submit')], true, 'settled'],
    ['a success wins over a review of its duplicate', [a('succeeded', 'submit')], true, 'settled'],
  ] as const)('%s', (_title, attempts, inReview, kind) => {
    expect(decideOpening(attempts, inReview, { now: new Date(), validMs: 60_000 }).kind).toBe(kind);
  });

  it('asks again once a clean re-check is older than its validity (a late create may have landed since)', () => {
    const checkedAt = new Date('2026-12-04T10:00:00Z');
    const attempts = [a('failed', 'resolver', checkedAt)];
    expect(decideOpening(attempts, false, { now: new Date('2026-12-04T10:00:59Z'), validMs: 60_000 }).kind).toBe('create');
    expect(decideOpening(attempts, false, { now: new Date('2026-12-04T10:01:01Z'), validMs: 60_000 }).kind).toBe('recheck');
  });
});
