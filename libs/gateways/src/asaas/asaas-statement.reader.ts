import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { asaasListPages, type AsaasGet } from './asaas-list.pages.js';
import { readPayment } from './asaas-payment.response.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';
import { dayIn, noonOf } from './asaas-days.js';

/**
 * Asaas's statement is its list of payments received in a date range (`paymentDate[ge]`/`[le]`, whole days in
 * the account's time zone), paged by offset. Every payment that took money is a charge line, matched by its id
 * or by `externalReference` (our attempt id); two payments under one reference are two lines, which is how a
 * duplicate created by a resend shows. Asaas gives a payment date, not a time: the line is placed at noon of
 * that day in the business's zone, inside the day the run covers. A list that moved while it was paged throws
 * StatementMovedError: the caller reads the day again from the start.
 */
export async function* asaasStatementLines(request: StatementRequest, timeZone: string, get: AsaasGet): AsyncGenerator<StatementLine> {
  const range = { 'paymentDate[ge]': dayIn(timeZone, request.from), 'paymentDate[le]': dayIn(timeZone, new Date(request.to.getTime() - 1)) };
  for await (const payments of asaasListPages('/v3/payments', range, get, request.signal)) {
    for (const raw of payments) {
      const line = lineFromPayment(raw, timeZone);
      if (line) yield line;
    }
  }
}

function lineFromPayment(raw: unknown, timeZone: string): StatementLine | null {
  const payment = readPayment(raw);
  const paymentDate = (raw as { paymentDate?: unknown }).paymentDate;
  if (!payment || typeof paymentDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(paymentDate)) return null;
  // Only money that was taken is a line; a payment not (or no longer) received moved nothing.
  if (mapAsaasPaymentStatus(payment.status, payment.deleted) !== 'succeeded') return null;
  if (!Number.isSafeInteger(payment.amountCents)) throw new Error(`payment ${payment.id} has an unreadable value`);
  return {
    lineId: payment.id,
    kind: 'charge',
    providerChargeId: payment.id,
    attemptId: payment.externalReference,
    chargeId: null,
    amountCents: payment.amountCents,
    currency: 'brl',
    createdAt: noonOf(paymentDate, timeZone),
  };
}
