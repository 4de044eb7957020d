import type { WebhookFormat } from '../webhook-sender.js';
import type { AsaasEvent } from './asaas-events.js';

const FORGED_TOKEN = 'asaas-token-forged-by-simulator';

/** Asaas authenticates webhooks with the static token configured for them, in `asaas-access-token`. */
export const ASAAS_WEBHOOK_FORMAT: WebhookFormat<AsaasEvent> = {
  describe: (event) => ({ eventId: event.id, type: event.event, intentId: event.payment.id }),
  headers: (_body, token, forged) => ({
    'Content-Type': 'application/json; charset=utf-8',
    'asaas-access-token': forged ? FORGED_TOKEN : token,
    'User-Agent': 'Asaas_Hmlg/3.0 charge-once-simulator',
  }),
};
