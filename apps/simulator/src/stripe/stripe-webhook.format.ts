import { signStripePayload } from '@app/gateways';
import type { WebhookFormat } from '../webhook-sender.js';
import type { StripeEvent } from './stripe-events.js';

const FORGED_SECRET = 'whsec_forged_by_simulator';

/** Stripe: `Stripe-Signature` over the raw body with the endpoint secret. */
export const STRIPE_WEBHOOK_FORMAT: WebhookFormat<StripeEvent> = {
  describe: (event) => ({ eventId: event.id, type: event.type, intentId: event.data.object.id }),
  headers: (body, secret, forged) => ({
    'Content-Type': 'application/json; charset=utf-8',
    'Stripe-Signature': signStripePayload(body, forged ? FORGED_SECRET : secret, Math.floor(Date.now() / 1000)),
    'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) charge-once-simulator',
  }),
};
