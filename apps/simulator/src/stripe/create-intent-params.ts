import { currencyAmountProblem, STRIPE_CURRENCIES } from '@app/gateways';
import { formString } from './form-body.js';
import type { FormObject } from './form-body.js';
import type { CreateIntentParams } from './payment-intent.js';
import { stripeErrors } from './stripe-errors.js';
import type { StripeErrorBody } from './stripe-errors.js';

/**
 * Stands in for Stripe's conversion check on a currency with no published minimum (the charge must convert to at
 * least the settlement currency's minimum, $0.50 for a US account): the simulator converts nothing, so 50 minor units.
 */
const UNPUBLISHED_MINIMUM = 50;

/** Validates a create request the way Stripe does before executing it (so a failure stores nothing). */
export function readCreateParams(form: FormObject): CreateIntentParams | { error: StripeErrorBody } {
  const amount = formString(form, 'amount');
  if (amount === null) return { error: stripeErrors.missingParam('amount') };
  if (!/^[0-9]+$/.test(amount)) return { error: stripeErrors.invalidParam('amount', `Invalid integer: ${amount}`) };
  const currency = formString(form, 'currency');
  if (currency === null) return { error: stripeErrors.missingParam('currency') };
  if (!/^[a-zA-Z]{3}$/.test(currency)) {
    return { error: stripeErrors.invalidParam('currency', `Invalid currency: ${currency}`) };
  }
  const refused = refusedAmount(currency.toLowerCase(), Number(amount));
  if (refused) return { error: refused };
  const confirm = formString(form, 'confirm') === 'true';
  const paymentMethod = formString(form, 'payment_method');
  // A confirm with no payment method falls back to a legacy default_source only; the simulator's customers have
  // none, as a customer set up through the Payment Methods API has none.
  if (confirm && paymentMethod === null) return { error: stripeErrors.confirmWithoutPaymentMethod(formString(form, 'customer')) };
  if (confirm && mayRedirect(form) && formString(form, 'return_url') === null) return { error: stripeErrors.returnUrlRequired() };
  return {
    amount: Number(amount),
    currency: currency.toLowerCase(),
    customer: formString(form, 'customer'),
    paymentMethod,
    confirm,
    metadata: readMetadata(form),
  };
}

/** What Stripe refuses of a currency and amount, from the same table the api checks (stripe.currencies.ts). */
function refusedAmount(currency: string, amount: number): StripeErrorBody | null {
  const problem = currencyAmountProblem(STRIPE_CURRENCIES, currency, amount);
  switch (problem?.rule) {
    case undefined:
      return STRIPE_CURRENCIES.get(currency)?.minimumAmount === undefined && amount < UNPUBLISHED_MINIMUM ? stripeErrors.amountTooSmall(UNPUBLISHED_MINIMUM, currency) : null;
    case 'currency_not_supported':
      return stripeErrors.invalidParam('currency', `Invalid currency: ${currency}. Stripe currently supports these currencies: ${[...STRIPE_CURRENCIES.keys()].join(', ')}`);
    case 'amount_below_minimum':
      return stripeErrors.amountTooSmall(problem.minimumAmount, currency);
    case 'amount_not_representable':
      return stripeErrors.invalidParam('amount', `Invalid amount: ${currency} amounts must be a multiple of ${problem.multipleOf} (round to the nearest ten)`);
  }
}

/**
 * Whether the confirm may need a full-page redirect, as on an account with automatic payment methods (the default
 * since 2023-08-16): unless the request limits itself to explicit `allowed_payment_method_types[]` (named
 * `payment_method_types` before the pinned version), or to methods that never redirect, Stripe wants a `return_url`.
 */
function mayRedirect(form: FormObject): boolean {
  if (form.allowed_payment_method_types !== undefined || form.payment_method_types !== undefined) return false;
  if (formString(form, 'automatic_payment_methods', 'enabled') === 'false') return false;
  return formString(form, 'automatic_payment_methods', 'allow_redirects') !== 'never';
}

function readMetadata(form: FormObject): Record<string, string> {
  const metadata = form.metadata;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (typeof value === 'string') flat[key] = value;
  return flat;
}
