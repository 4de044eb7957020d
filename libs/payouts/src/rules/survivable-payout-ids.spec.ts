import { describe, expect, it } from 'vitest';
import { isUuid } from '@app/common';
import { confirmedPayoutIdOf, payoutAttemptIdOf, payoutIdOf } from './survivable-payout-ids.js';

const MERCHANT = 'merchant:5b0c2f3e-7d1a-4e8b-9c6d-2a4f8e1b3c5d';
const ACCOUNT = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a';
const OTHER_ACCOUNT = '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9';
const REQUEST = '3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

describe('payout ids that outlive a lost commit', () => {
  it('give one payout per caller, account and Idempotency-Key, on every machine', () => {
    expect(payoutIdOf(MERCHANT, ACCOUNT, 'key-1')).toBe(payoutIdOf(MERCHANT, ACCOUNT, 'key-1'));
    expect(isUuid(payoutIdOf(MERCHANT, ACCOUNT, 'key-1'))).toBe(true);
  });

  it.each([
    ['another key', MERCHANT, ACCOUNT, 'key-2'],
    ['another account', MERCHANT, OTHER_ACCOUNT, 'key-1'],
    ['another caller', 'admin:ops-alice', ACCOUNT, 'key-1'],
    ['a key that would run into the account', MERCHANT, `${ACCOUNT}\nkey-1`, ''],
    ['a caller that would run into the account', `${MERCHANT}","${ACCOUNT}`, 'key-1', ''],
  ])('give another payout for %s', (_case, caller, account, key) => {
    expect(payoutIdOf(caller, account, key)).not.toBe(payoutIdOf(MERCHANT, ACCOUNT, 'key-1'));
  });

  it('give a confirmed request its own payout, never one a caller could name with a key', () => {
    expect(confirmedPayoutIdOf(REQUEST)).toBe(confirmedPayoutIdOf(REQUEST));
    expect(isUuid(confirmedPayoutIdOf(REQUEST))).toBe(true);
    expect(confirmedPayoutIdOf(REQUEST)).not.toBe(payoutIdOf(MERCHANT, ACCOUNT, REQUEST));
  });

  it('give each attempt of a payout its own id, the same each time it is derived, usable as an idEnvio', () => {
    const payout = payoutIdOf(MERCHANT, ACCOUNT, 'key-1');
    const first = payoutAttemptIdOf(payout, 0);
    expect(payoutAttemptIdOf(payout, 0)).toBe(first);
    expect(isUuid(first)).toBe(true);
    expect(first).not.toBe(payout);
    expect(payoutAttemptIdOf(payout, 1)).not.toBe(first);
    expect(payoutAttemptIdOf(payoutIdOf(MERCHANT, OTHER_ACCOUNT, 'key-1'), 0)).not.toBe(first);
  });

  it.each([-1, 1.5, Number.NaN])('refuses attempt number %s', (sequence) => {
    expect(() => payoutAttemptIdOf(payoutIdOf(MERCHANT, ACCOUNT, 'key-1'), sequence)).toThrow(/whole number/);
  });
});
