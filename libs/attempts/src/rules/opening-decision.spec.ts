import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from './attempt-status.js';
import { decideOpening } from './opening-decision.js';

const a = (status: AttemptStatus, resolvedBy: string | null = null, recheckedAt: Date | null = null) => ({ status, providerChargeId: null, resolvedBy, recheckedAt });

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
  ] as const)('%s', (_title, attempts, inReview, kind) => {
    expect(decideOpening(attempts, inReview).kind).toBe(kind);
  });
});
