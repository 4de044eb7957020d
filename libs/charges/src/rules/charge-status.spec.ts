import { describe, expect, it } from 'vitest';
import type { AttemptStatus } from '@app/attempts/rules';
import { deriveChargeStatus, type ChargeStatus } from './charge-status.js';

const rows: Array<[string, AttemptStatus[], boolean, ChargeStatus]> = [
  ['no attempt yet', [], false, 'created'],
  ['one pending attempt', ['pending'], false, 'processing'],
  ['one unknown attempt', ['unknown'], false, 'processing'],
  ['an unknown attempt with an open review item', ['unknown'], true, 'in_review'],
  ['the last attempt failed', ['failed'], false, 'failed'],
  ['a failed then a pending attempt', ['failed', 'pending'], false, 'processing'],
  ['a failed then a succeeded attempt', ['failed', 'succeeded'], false, 'succeeded'],
  ['two failed attempts', ['failed', 'failed'], false, 'failed'],
  ['a failed attempt the provider later reported as paid, under review', ['failed'], true, 'in_review'],
  ['a succeeded charge with a duplicate under review stays succeeded', ['succeeded'], true, 'succeeded'],
];

describe('deriveChargeStatus', () => {
  it.each(rows)('%s → %s', (_name, statuses, inReview, expected) => {
    expect(deriveChargeStatus(statuses.map((status) => ({ status })), inReview)).toBe(expected);
  });
});
