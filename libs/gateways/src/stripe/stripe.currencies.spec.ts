import { isoCurrency } from '@app/common';
import { describe, expect, it } from 'vitest';
import { STRIPE_CURRENCIES, STRIPE_MINIMUM_CHARGE, stripeMinorUnits } from './stripe.currencies.js';

describe('Stripe currencies', () => {
  it('takes only ISO 4217 money, counted in the same minor units as ISO, so a stored amount is the amount Stripe reads', () => {
    const mismatched = [...STRIPE_CURRENCIES.keys()].filter((currency) => isoCurrency(currency)?.minorUnits !== stripeMinorUnits(currency));
    expect(mismatched).toEqual([]);
  });

  it('has a minimum for every settlement currency in its table, and takes each of them', () => {
    expect(Object.keys(STRIPE_MINIMUM_CHARGE).filter((currency) => !STRIPE_CURRENCIES.has(currency))).toEqual([]);
    expect(STRIPE_CURRENCIES.get('usd')).toEqual({ minimumAmount: 50 });
    expect(STRIPE_CURRENCIES.get('bhd')).toEqual({ multipleOf: 10 });
  });
});
