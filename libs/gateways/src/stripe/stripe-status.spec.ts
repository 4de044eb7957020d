import { describe, expect, it } from 'vitest';
import { mapStripeIntentStatus } from './stripe-status.js';

describe('mapStripeIntentStatus', () => {
  it.each([
    ['succeeded', false, 'succeeded'],
    ['processing', false, 'pending'],
    ['requires_action', false, 'failed'],
    ['requires_confirmation', false, 'pending'],
    ['requires_capture', false, 'pending'],
    ['requires_payment_method', true, 'failed'],
    ['requires_payment_method', false, 'pending'],
    ['canceled', false, 'failed'],
    ['canceled', true, 'failed'],
    ['succeeded', true, 'succeeded'],
  ] as const)('maps %s (last_payment_error: %s) to %s', (status, hasError, expected) => {
    expect(mapStripeIntentStatus(status, hasError)).toBe(expected);
  });

  it.each([['refunded'], [''], [undefined], [null], [42], ['toString'], ['__proto__']])(
    'returns null for an unrecognised status %j so it proves nothing',
    (status) => {
      expect(mapStripeIntentStatus(status, false)).toBeNull();
    },
  );
});
