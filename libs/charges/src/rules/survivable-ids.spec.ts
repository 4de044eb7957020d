import { describe, expect, it } from 'vitest';
import { isUuid } from '@app/common';
import { chargeAttemptIdsOf, chargeIdOf } from './survivable-ids.js';

const MERCHANT = '5b0c2f3e-7d1a-4e8b-9c6d-2a4f8e1b3c5d';
const OTHER = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a';

describe('ids that outlive a lost commit', () => {
  it('give one charge per merchant and order, on every machine', () => {
    expect(chargeIdOf(MERCHANT, 'order-1')).toBe(chargeIdOf(MERCHANT, 'order-1'));
    expect(isUuid(chargeIdOf(MERCHANT, 'order-1'))).toBe(true);
  });

  it.each([
    ['another order', MERCHANT, 'order-2'],
    ['another merchant', OTHER, 'order-1'],
    ['a name that would run into the merchant', MERCHANT, '\norder-1'],
  ])('give another charge for %s', (_case, merchant, order) => {
    expect(chargeIdOf(merchant, order)).not.toBe(chargeIdOf(MERCHANT, 'order-1'));
  });

  it('give each attempt of a charge its own id and key, the same each time it is derived', () => {
    const charge = chargeIdOf(MERCHANT, 'order-1');
    const first = chargeAttemptIdsOf(charge, 0);
    expect(chargeAttemptIdsOf(charge, 0)).toEqual(first);
    expect(first.attemptId).not.toBe(first.idempotencyKey);
    const second = chargeAttemptIdsOf(charge, 1);
    expect(second.attemptId).not.toBe(first.attemptId);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(chargeAttemptIdsOf(chargeIdOf(OTHER, 'order-1'), 0).idempotencyKey).not.toBe(first.idempotencyKey);
  });

  it.each([-1, 1.5, Number.NaN])('refuses attempt number %s', (sequence) => {
    expect(() => chargeAttemptIdsOf(chargeIdOf(MERCHANT, 'order-1'), sequence)).toThrow(/whole number/);
  });
});
