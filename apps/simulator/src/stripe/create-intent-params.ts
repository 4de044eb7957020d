import { formString } from './form-body.js';
import type { FormObject } from './form-body.js';
import type { CreateIntentParams } from './payment-intent.js';
import { stripeErrors } from './stripe-errors.js';
import type { StripeErrorBody } from './stripe-errors.js';

/** Stripe's smallest chargeable amounts in minor units (a few of them; 50 elsewhere). */
const MINIMUM_CHARGE: Record<string, number> = { usd: 50, eur: 50, brl: 50, gbp: 30, jpy: 50, mxn: 1000 };

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
  const minimum = MINIMUM_CHARGE[currency.toLowerCase()] ?? 50;
  if (Number(amount) < minimum) return { error: stripeErrors.amountTooSmall(minimum, currency.toLowerCase()) };
  return {
    amount: Number(amount),
    currency: currency.toLowerCase(),
    customer: formString(form, 'customer'),
    paymentMethod: formString(form, 'payment_method'),
    confirm: formString(form, 'confirm') === 'true',
    metadata: readMetadata(form),
  };
}

function readMetadata(form: FormObject): Record<string, string> {
  const metadata = form.metadata;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (typeof value === 'string') flat[key] = value;
  return flat;
}
