import type { StatementLine, StatementRequest } from '../payment-gateway.port.js';
import { readStatementPage, type StatementPage } from '../statement/statement-page.retry.js';
import { readPayment } from './asaas-payment.response.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';
import { dayIn, noonOf } from './asaas-days.js';

const PAGE_SIZE = 100;

/**
 * Asaas's statement is its list of payments received in a date range (`paymentDate[ge]`/`[le]`, whole days in
 * the account's time zone), paged by offset. Every payment that took money is a charge line, matched by its id
 * or by `externalReference` (our attempt id); two payments under one reference are two lines, which is how a
 * duplicate created by a resend shows. Asaas gives a payment date, not a time: the line is placed at noon of
 * that day in the business's zone, inside the day the run covers.
 */
export async function* asaasStatementLines(
  request: StatementRequest,
  timeZone: string,
  get: (path: string, params: Record<string, string>) => Promise<StatementPage>,
): AsyncGenerator<StatementLine> {
  const range = { 'paymentDate[ge]': dayIn(timeZone, request.from), 'paymentDate[le]': dayIn(timeZone, new Date(request.to.getTime() - 1)) };
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const body = await readStatementPage(() => get('/v3/payments', { ...range, offset: String(offset), limit: String(PAGE_SIZE) }), request.signal);
    const data = Array.isArray(body.data) ? (body.data as unknown[]) : [];
    for (const raw of data) {
      const line = lineFromPayment(raw, timeZone);
      if (line) yield line;
    }
    if (body.hasMore !== true) return;
    if (data.length === 0) throw new Error('Asaas said hasMore on an empty page');
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
