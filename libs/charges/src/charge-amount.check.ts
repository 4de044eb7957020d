import { currencyAmountProblem, type ChargeGateway } from '@app/gateways';
import { AmountBelowMinimumError, AmountNotRepresentableError, CurrencyNotSupportedError } from './charges.errors.js';

/**
 * Refuses, naming the rule, a charge its provider would certainly refuse for its currency or amount: before
 * anything is stored at create, and again before an attempt is opened for a charge stored under older rules.
 */
export function checkChargeAmount(gateway: ChargeGateway, currency: string, amountCents: number): void {
  const problem = currencyAmountProblem(gateway.currencies, currency, amountCents);
  switch (problem?.rule) {
    case undefined:
      return;
    case 'currency_not_supported':
      throw new CurrencyNotSupportedError(gateway.provider, currency, problem.reason);
    case 'amount_below_minimum':
      throw new AmountBelowMinimumError(gateway.provider, currency, problem.minimumAmount);
    case 'amount_not_representable':
      throw new AmountNotRepresentableError(gateway.provider, currency, problem.multipleOf);
  }
}
