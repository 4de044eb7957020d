import { dayIn } from './asaas-days.js';
import type { ChargeFieldProblem, ChargeFields, ChargeRequest } from '../charge-gateway.port.js';
import { centsToReais } from './asaas-amount.js';

export const ASAAS_BILLING_TYPES = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;
export type AsaasBillingType = (typeof ASAAS_BILLING_TYPES)[number];

/** What Asaas needs from a charge beyond the common fields and its currency (ASAAS_CURRENCIES): how the customer pays. */
export function asaasChargeProblem(fields: ChargeFields): ChargeFieldProblem | null {
  if (fields.billingType === null) return { field: 'billingType', message: `billingType is required for provider asaas (one of ${ASAAS_BILLING_TYPES.join(', ')})` };
  if (!(ASAAS_BILLING_TYPES as readonly string[]).includes(fields.billingType)) {
    return { field: 'billingType', message: `billingType must be one of ${ASAAS_BILLING_TYPES.join(', ')}; got "${fields.billingType}"` };
  }
  const token = fields.paymentMethodId ?? null;
  if (token !== null && fields.billingType !== 'CREDIT_CARD') {
    return { field: 'paymentMethodId', message: `paymentMethodId (a card token) is for billingType CREDIT_CARD only; a ${fields.billingType} waits for its payer` };
  }
  // Asaas charges a token only with the customer's own IP (remoteIp); without a token a card charge is an invoice
  // the customer pays on Asaas's page, like a boleto.
  if (token !== null && !fields.customerIp) return { field: 'customerIp', message: 'customerIp is required for provider asaas with a card token (Asaas remoteIp: the IP the customer buys from)' };
  if (token === null && fields.customerIp) return { field: 'customerIp', message: 'customerIp is only sent with a card token (paymentMethodId)' };
  return null;
}

/** Today's date (YYYY-MM-DD) in a time zone: a boleto due "today" means today where the business is. */
export function todayIn(timeZone: string, now: Date): string {
  return dayIn(timeZone, now);
}

/**
 * The JSON body of `POST /v3/payments`, in one fixed key order so the same request always yields the
 * same bytes (the attempt stores them; only a send proven never to have arrived is repeated).
 * `value` is written as the exact decimal text, as a JSON number literal: no float ever holds it.
 * `externalReference` is our attempt id: Asaas has no idempotency key, so it is the only way to find
 * out afterwards whether a request we lost track of created a payment. A card charge with a token (tokenised by
 * the caller: no card number ever reaches us) is charged in the same call, `creditCardToken` and the customer's
 * `remoteIp`; without one Asaas creates an invoice the customer pays on its page.
 */
export function encodeAsaasCharge(request: ChargeRequest, dueDate: string): string {
  if (!request.billingType) throw new Error('an asaas charge needs a billingType');
  const text = (value: string) => JSON.stringify(value);
  return [
    `{"customer":${text(request.customerId)}`,
    `"billingType":${text(request.billingType)}`,
    `"value":${centsToReais(request.amountCents)}`,
    `"dueDate":${text(request.dueDate ?? dueDate)}`,
    `"description":${text(`charge ${request.chargeId}`)}`,
    ...(request.billingType === 'CREDIT_CARD' && request.paymentMethodId
      ? [`"creditCardToken":${text(request.paymentMethodId)}`, `"remoteIp":${text(request.customerIp ?? '')}`]
      : []),
    `"externalReference":${text(request.attemptId)}}`,
  ].join(',');
}
