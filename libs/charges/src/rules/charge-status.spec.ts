import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from '@app/attempts/rules';
import { deriveChargeStatus, type ChargeStatus } from './charge-status.js';

type Refund = { amountCents: number; status: 'processing' | 'in_review' | 'succeeded' | 'failed' };
const late = { status: 'failed' as const, lateCapturedAt: new Date() };
const at = (statuses: AttemptStatus[]) => statuses.map((status) => ({ status, lateCapturedAt: null }));

const rows: Array<[string, Array<{ status: AttemptStatus; lateCapturedAt: Date | null }>, boolean, Refund[], ChargeStatus]> = [
  ['no attempt yet', [], false, [], 'created'],
  ['one pending attempt', at(['pending']), false, [], 'processing'],
  ['one unknown attempt', at(['unknown']), false, [], 'processing'],
  ['an unknown attempt with an open review item', at(['unknown']), true, [], 'in_review'],
  ['the last attempt failed', at(['failed']), false, [], 'failed'],
  ['a failed then a pending attempt', at(['failed', 'pending']), false, [], 'processing'],
  ['a failed then a succeeded attempt', at(['failed', 'succeeded']), false, [], 'succeeded'],
  ['two failed attempts', at(['failed', 'failed']), false, [], 'failed'],
  ['a failed attempt under review that the provider never captured', at(['failed']), true, [], 'in_review'],
  ['a failed attempt the provider captured late, under review: the customer paid', [late], true, [], 'succeeded'],
  ['a late capture after a person acknowledged it, then a decline', [late, { status: 'failed', lateCapturedAt: null }], false, [], 'succeeded'],
  ['a succeeded charge with a duplicate under review stays succeeded', at(['succeeded']), true, [], 'succeeded'],
  ['a refund on its way', at(['succeeded']), false, [{ amountCents: 100, status: 'processing' }], 'refund_pending'],
  ['a refund a person is deciding', at(['succeeded']), false, [{ amountCents: 100, status: 'in_review' }], 'refund_pending'],
  ['part of it refunded', at(['succeeded']), false, [{ amountCents: 100, status: 'succeeded' }], 'partially_refunded'],
  ['all of it refunded, in two refunds', at(['succeeded']), false, [{ amountCents: 400, status: 'succeeded' }, { amountCents: 600, status: 'succeeded' }], 'refunded'],
  ['a late capture refunded in full', [late], false, [{ amountCents: 1000, status: 'succeeded' }], 'refunded'],
  ['a failed refund leaves the capture', at(['succeeded']), false, [{ amountCents: 1000, status: 'failed' }], 'succeeded'],
];

describe('deriveChargeStatus', () => {
  it.each(rows)('%s', (_name, attempts, inReview, refunds, expected) => {
    expect(deriveChargeStatus(attempts, inReview, refunds, 1000)).toBe(expected);
  });
});
