import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCreateParams } from './create-intent-params.js';
import type { CreateFault } from '../fault-plan.js';
import { formString } from './form-body.js';
import type { StoredResponse } from './idempotency-keys.store.js';
import type { CreateIntentParams } from './payment-intent.js';
import type { StripeEngine } from './stripe-engine.js';
import { stripeErrors } from './stripe-errors.js';
import { stripeIdempotentPost } from './stripe-idempotent-post.route.js';

/** `POST /v1/payment_intents`: the Stripe create pipeline; a declined card answers 402 with the intent. */
export function createPaymentIntentRoute(engine: StripeEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  return stripeIdempotentPost<CreateIntentParams>(
    {
      counter: 'creates',
      facts: (form) => ({ customerId: formString(form, 'customer'), attemptId: formString(form, 'metadata', 'attempt_id') }),
      readParams: readCreateParams,
      execute: (params, fault, origin) => execute(engine, params, fault, origin),
      slow: true,
    },
    engine,
    request,
    response,
  );
}

/** Runs the create (or fails it as the fault says) and serialises the response once, for sending and replay. */
function execute(
  engine: StripeEngine,
  params: CreateIntentParams,
  fault: CreateFault | null,
  origin: { requestId: string; idempotencyKey: string | null },
): StoredResponse {
  if (fault === '500_before_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  const intent = engine.createIntent(params, origin, fault === 'decline');
  if (fault === '500_after_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  if (intent.last_payment_error) return { status: 402, body: JSON.stringify(stripeErrors.cardDeclined(intent)) };
  return { status: 200, body: JSON.stringify(intent) };
}
