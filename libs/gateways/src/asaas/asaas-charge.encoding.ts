import { dayIn } from './asaas-days.js';
import type { ChargeFieldProblem, ChargeFields, ChargeRequest } from '../charge-gateway.port.js';
import { centsToReais } from './asaas-amount.js';

export const ASAAS_BILLING_TYPES = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;
export type AsaasBillingType = (typeof ASAAS_BILLING_TYPES)[number];

/** What Asaas needs from a charge beyond the common fields: reais only, and how the customer pays. */
export function asaasChargeProblem(fields: ChargeFields): ChargeFieldProblem | null {
  if (fields.currency !== 'brl') return { field: 'currency', message: `currency must be "brl" for provider asaas; got "${fields.currency}"` };
  if (fields.billingType === null) return { field: 'billingType', message: `billingType is required for provider asaas (one of ${ASAAS_BILLING_TYPES.join(', ')})` };
  if (!(ASAAS_BILLING_TYPES as readonly string[]).includes(fields.billingType)) {
    return { field: 'billingType', message: `billingType must be one of ${ASAAS_BILLING_TYPES.join(', ')}; got "${fields.billingType}"` };
  }
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
 * out afterwards whether a request we lost track of created a payment.
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
    `"externalReference":${text(request.attemptId)}}`,
  ].join(',');
}
