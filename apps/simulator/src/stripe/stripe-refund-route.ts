import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CreateFault } from '../fault-plan.js';
import { formString } from './form-body.js';
import type { StoredResponse } from './idempotency-keys.store.js';
import { readRefundParams } from './refund-params.js';
import type { CreateRefundParams } from './refund.js';
import type { StripeEngine } from './stripe-engine.js';
import { stripeErrors } from './stripe-errors.js';
import { stripeIdempotentPost } from './stripe-idempotent-post.route.js';

/**
 * `POST /v1/refunds`, through the same pipeline and fault knobs as a payment intent's create. Rules match on the
 * refunded intent's customer and the refund attempt; `decline` makes the refund `failed`.
 */
export function createRefundRoute(engine: StripeEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  return stripeIdempotentPost<CreateRefundParams>(
    {
      counter: 'refundCreates',
      facts: (form) => {
        const intentId = formString(form, 'payment_intent');
        return {
          customerId: (intentId ? engine.intentStore.get(intentId)?.customer : null) ?? null,
          attemptId: formString(form, 'metadata', 'refund_attempt_id')
        };
      },
      readParams: (form) => readRefundParams(form, engine.intentStore, engine.refundStore),
      execute: (params, fault, origin) => execute(engine, params, fault, origin),
    },
    engine,
    request,
    response,
  );
}

function execute(engine: StripeEngine, params: CreateRefundParams, fault: CreateFault | null, origin: { requestId: string; idempotencyKey: string | null }): StoredResponse {
  if (fault === '500_before_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  const refund = engine.createRefund(params, origin, fault === 'decline');
  if (fault === '500_after_create') return { status: 500, body: JSON.stringify(stripeErrors.apiError()) };
  return { status: 200, body: JSON.stringify(refund) };
}
