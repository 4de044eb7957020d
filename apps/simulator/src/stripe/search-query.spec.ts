import { describe, expect, it } from 'vitest';
import type { StripePaymentIntent } from './payment-intent.js';
import { newPaymentIntent } from './payment-intent.js';
import { parseSearchQuery } from './search-query.js';

const intent: StripePaymentIntent = newPaymentIntent(
  { amount: 100, currency: 'usd', customer: 'cus_A', paymentMethod: null, confirm: true, metadata: { attempt_id: "at'1" } },
  Date.now(),
);

describe('parseSearchQuery', () => {
  it.each([
    [`metadata['attempt_id']:'at\\'1'`, true],
    [`metadata["attempt_id"]:"at'1"`, true],
    [`metadata["attempt_id"]:"other"`, false],
    [`customer:"cus_A"`, true],
    [`customer:'cus_a'`, true],
    [`customer:"cus_A" AND metadata['attempt_id']:"at'1"`, true],
    [`customer:"cus_A" metadata['attempt_id']:"at'1"`, true],
    [`customer:"cus_A" AND metadata['attempt_id']:"nope"`, false],
    [`metadata['charge_id']:'x'`, false],
    [`status:'requires_payment_method' AND currency:'usd'`, true],
  ])('evaluates %s as %s', (query, expected) => {
    expect(parseSearchQuery(query)(intent)).toBe(expected);
  });

  it.each([[''], ['customer:cus_A'], ['constructor:"x"'], ['amount:"100"'], ['customer:"a" OR customer:"b"'], ['customer:"a" AND']])(
    'refuses the unsupported query %j',
    (query) => {
      expect(() => parseSearchQuery(query)).toThrow();
    },
  );
});
