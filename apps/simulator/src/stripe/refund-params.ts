import { formString } from './form-body.js';
import type { FormObject } from './form-body.js';
import type { PaymentIntentStore } from './payment-intents.store.js';
import type { RefundStore } from './refunds.store.js';
import { holdsMoney } from './refund.js';
import type { CreateRefundParams } from './refund.js';
import { stripeErrors } from './stripe-errors.js';
import type { StripeErrorBody } from './stripe-errors.js';

/**
 * Validates a refund the way Stripe does before executing it (a failure stores nothing): the payment intent
 * must exist and have succeeded, and the amount must fit in what it received minus what its refunds hold.
 */
export function readRefundParams(form: FormObject, intents: PaymentIntentStore, refunds: RefundStore): CreateRefundParams | { error: StripeErrorBody } {
  const intentId = formString(form, 'payment_intent');
  if (intentId === null) return { error: stripeErrors.missingParam('payment_intent') };
  const intent = intents.get(intentId);
  if (!intent) return { error: stripeErrors.resourceMissing(intentId) };
  if (intent.status !== 'succeeded') {
    return { error: stripeErrors.invalidParam('payment_intent', `This PaymentIntent (${intentId}) does not have a successful charge to refund.`) };
  }
  const held = refunds.find((r) => r.payment_intent === intentId && holdsMoney(r)).reduce((sum, r) => sum + r.amount, 0);
  const remaining = intent.amount_received - held;
  const raw = formString(form, 'amount');
  if (raw !== null && !/^[0-9]+$/.test(raw)) return { error: stripeErrors.invalidParam('amount', `Invalid integer: ${raw}`) };
  const amount = raw === null ? remaining : Number(raw);
  if (amount < 1) return { error: stripeErrors.invalidParam('amount', 'Refund amount must be positive, and the charge must have an amount left to refund.') };
  if (amount > remaining) {
    return { error: stripeErrors.invalidParam('amount', `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`) };
  }
  const metadata = form.metadata;
  const flat: Record<string, string> = {};
  if (typeof metadata === 'object' && !Array.isArray(metadata)) {
    for (const [key, value] of Object.entries(metadata)) if (typeof value === 'string') flat[key] = value;
  }
  return { intent, amount, reason: formString(form, 'reason'), metadata: flat };
}
