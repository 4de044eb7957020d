import { describe, expect, it } from 'vitest';
import { isUuid } from '@app/common';
import { proposalRefundIdOf, refundAttemptIdsOf, refundIdOf } from './survivable-refund-ids.js';

const SCOPE = 'merchant:5b0c2f3e-7d1a-4e8b-9c6d-2a4f8e1b3c5d POST /charges/:id/refunds';
const OTHER_SCOPE = 'merchant:9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a POST /charges/:id/refunds';
const CHARGE = '0f1e2d3c-4b5a-4697-8877-665544332211';
const OTHER_CHARGE = '11223344-5566-4778-8899-aabbccddeeff';

describe('refund ids that outlive a lost commit', () => {
  it('give one refund per caller, charge and Idempotency-Key, on every machine', () => {
    expect(refundIdOf(SCOPE, CHARGE, 'key-1')).toBe(refundIdOf(SCOPE, CHARGE, 'key-1'));
    expect(isUuid(refundIdOf(SCOPE, CHARGE, 'key-1'))).toBe(true);
  });

  it.each([
    ['another key', SCOPE, CHARGE, 'key-2'],
    ['another caller', OTHER_SCOPE, CHARGE, 'key-1'],
    ['another charge', SCOPE, OTHER_CHARGE, 'key-1'],
    ['a key that would run into the charge', SCOPE, CHARGE, '\nkey-1'],
  ])('give another refund for %s', (_case, scope, charge, key) => {
    expect(refundIdOf(scope, charge, key)).not.toBe(refundIdOf(SCOPE, CHARGE, 'key-1'));
  });

  it('give a proposal its own refund, never one a key could name', () => {
    expect(proposalRefundIdOf(CHARGE)).toBe(proposalRefundIdOf(CHARGE));
    expect(proposalRefundIdOf(CHARGE)).not.toBe(proposalRefundIdOf(OTHER_CHARGE));
    expect(proposalRefundIdOf(CHARGE)).not.toBe(refundIdOf('', CHARGE, ''));
  });

  it('give each attempt of a refund its own id and key, the same each time it is derived', () => {
    const refund = refundIdOf(SCOPE, CHARGE, 'key-1');
    const first = refundAttemptIdsOf(refund, 0);
    expect(refundAttemptIdsOf(refund, 0)).toEqual(first);
    expect(first.attemptId).not.toBe(first.idempotencyKey);
    const second = refundAttemptIdsOf(refund, 1);
    expect(second.attemptId).not.toBe(first.attemptId);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(refundAttemptIdsOf(refundIdOf(SCOPE, CHARGE, 'key-2'), 0).idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it.each([-1, 1.5, Number.NaN])('refuses attempt number %s', (sequence) => {
    expect(() => refundAttemptIdsOf(refundIdOf(SCOPE, CHARGE, 'key-1'), sequence)).toThrow(/whole number/);
  });
});
