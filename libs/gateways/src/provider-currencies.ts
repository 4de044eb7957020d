import { isoCurrency } from '@app/common';

/** What a provider takes in one currency, in that currency's ISO 4217 minor units. */
export interface CurrencyAmountRule {
  /** The smallest amount it charges; absent when none is published for this currency. */
  minimumAmount?: number;
  /** Every amount must be a multiple of this (Stripe's three-decimal currencies: 10). */
  multipleOf?: number;
}

/** The currencies a provider takes (lower case) and each one's amount rules. */
export type ProviderCurrencies = ReadonlyMap<string, CurrencyAmountRule>;

/** Why a provider would certainly refuse a charge's currency or amount; the api names the rule. */
export type CurrencyAmountProblem =
  | { rule: 'currency_not_supported'; reason: 'not_iso_money' | 'not_taken_by_provider' }
  | { rule: 'amount_below_minimum'; minimumAmount: number }
  | { rule: 'amount_not_representable'; multipleOf: number };

/**
 * Whether a provider takes this amount in this currency; null when it does. ISO 4217 first (a code that names
 * no money, `xxx` or `xau`, is no provider's currency), then the provider's own list and amount rules.
 */
export function currencyAmountProblem(currencies: ProviderCurrencies, currency: string, amount: number): CurrencyAmountProblem | null {
  if (!isoCurrency(currency)) return { rule: 'currency_not_supported', reason: 'not_iso_money' };
  const rule = currencies.get(currency.toLowerCase());
  if (!rule) return { rule: 'currency_not_supported', reason: 'not_taken_by_provider' };
  if (rule.minimumAmount !== undefined && amount < rule.minimumAmount) return { rule: 'amount_below_minimum', minimumAmount: rule.minimumAmount };
  if (rule.multipleOf !== undefined && amount % rule.multipleOf !== 0) return { rule: 'amount_not_representable', multipleOf: rule.multipleOf };
  return null;
}
