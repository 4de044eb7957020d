import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from '@app/attempts';
import { deriveRefundStatus, type RefundStatus } from './refund-status.js';

const rows: Array<[string, AttemptStatus[], boolean, RefundStatus]> = [
  ['no attempt yet (it is being opened)', [], false, 'processing'],
  ['one pending attempt', ['pending'], false, 'processing'],
  ['one unknown attempt', ['unknown'], false, 'processing'],
  ['an unknown attempt a person is deciding', ['unknown'], true, 'in_review'],
  ['the provider refused it', ['failed'], false, 'failed'],
  ['a failed attempt the provider later reported as refunded, under review', ['failed'], true, 'in_review'],
  ['failed, then retried and succeeded', ['failed', 'succeeded'], false, 'succeeded'],
  ['failed, then retried and still open', ['failed', 'pending'], false, 'processing'],
  ['a success stays a success whatever a person looks at', ['succeeded'], true, 'succeeded'],
];

describe('deriveRefundStatus', () => {
  it.each(rows)('%s → %s', (_name, statuses, inReview, expected) => {
    expect(deriveRefundStatus(statuses.map((status) => ({ status })), inReview)).toBe(expected);
  });

  it.each([
    ['a failed attempt the provider refunded late, under review: made', [{ status: 'failed' as const, lateRefundedAt: new Date() }], true],
    ['refunded late while its retry is still open: made', [{ status: 'failed' as const, lateRefundedAt: new Date() }, { status: 'unknown' as const }], false],
    ['refunded late, its retry failed: made', [{ status: 'failed' as const, lateRefundedAt: new Date() }, { status: 'failed' as const }], false],
  ])('%s', (_name, attempts, inReview) => {
    expect(deriveRefundStatus(attempts, inReview)).toBe('succeeded');
  });

  it.each([
    ['refunded late for another amount, its amount_mismatch item open', [{ status: 'failed' as const, lateRefundedAt: new Date(), lateRefundAmountCents: 300 }], true, 'in_review'],
    ['refunded late for another amount, the item closed by a person', [{ status: 'failed' as const, lateRefundedAt: new Date(), lateRefundAmountCents: 300 }], false, 'succeeded'],
    ['refunded late for our amount, the item open', [{ status: 'failed' as const, lateRefundedAt: new Date(), lateRefundAmountCents: 400 }], true, 'succeeded'],
    ['refunded late for another amount, a retry succeeded', [{ status: 'failed' as const, lateRefundedAt: new Date(), lateRefundAmountCents: 300 }, { status: 'succeeded' as const }], true, 'succeeded'],
  ] as const)('%s → %s', (_name, attempts, inReview, expected) => {
    expect(deriveRefundStatus(attempts, inReview, 400)).toBe(expected);
  });
});
