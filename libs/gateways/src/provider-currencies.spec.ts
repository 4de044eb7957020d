import { describe, expect, it } from 'vitest';
import { ASAAS_CURRENCIES } from './asaas/asaas.capabilities.js';
import { currencyAmountProblem, type ProviderCurrencies } from './provider-currencies.js';
import { STRIPE_CURRENCIES } from './stripe/stripe.currencies.js';

const PROVIDERS: Record<string, ProviderCurrencies> = { stripe: STRIPE_CURRENCIES, asaas: ASAAS_CURRENCIES };

describe('currencyAmountProblem', () => {
  it.each<[string, string, number, ReturnType<typeof currencyAmountProblem>]>([
    ['stripe', 'usd', 4990, null],
    ['stripe', 'usd', 50, null],
    ['stripe', 'usd', 49, { rule: 'amount_below_minimum', minimumAmount: 50 }],
    ['stripe', 'gbp', 29, { rule: 'amount_below_minimum', minimumAmount: 30 }],
    ['stripe', 'huf', 17499, { rule: 'amount_below_minimum', minimumAmount: 17500 }],
    ['stripe', 'jpy', 500, null],
    ['stripe', 'jpy', 49, { rule: 'amount_below_minimum', minimumAmount: 50 }],
    ['stripe', 'krw', 1, null],
    ['stripe', 'bhd', 1250, null],
    ['stripe', 'bhd', 1255, { rule: 'amount_not_representable', multipleOf: 10 }],
    ['stripe', 'kwd', 1, { rule: 'amount_not_representable', multipleOf: 10 }],
    ['stripe', 'cop', 10, null],
    ['stripe', 'xxx', 5000, { rule: 'currency_not_supported', reason: 'not_iso_money' }],
    ['stripe', 'xau', 5000, { rule: 'currency_not_supported', reason: 'not_iso_money' }],
    ['stripe', 'abc', 5000, { rule: 'currency_not_supported', reason: 'not_iso_money' }],
    ['stripe', 'isk', 5000, { rule: 'currency_not_supported', reason: 'not_taken_by_provider' }],
    ['stripe', 'iqd', 5000, { rule: 'currency_not_supported', reason: 'not_taken_by_provider' }],
    ['asaas', 'brl', 1, null],
    ['asaas', 'eur', 4990, { rule: 'currency_not_supported', reason: 'not_taken_by_provider' }],
    ['asaas', 'xxx', 4990, { rule: 'currency_not_supported', reason: 'not_iso_money' }],
  ])('%s, %s %i → %j', (provider, currency, amount, expected) => {
    expect(currencyAmountProblem(PROVIDERS[provider], currency, amount)).toEqual(expected);
  });
});
