import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { asaasListPages, type AsaasGet } from './asaas-list.pages.js';
import { readPayment } from './asaas-payment.response.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';
import { addDays } from '@app/common';
import { dayIn, noonOf } from './asaas-days.js';

/** A card is paid at most this long after it was created (an invoice's payer takes a while); past it, the card is not looked for. */
const CARD_PAID_WITHIN_DAYS = 45;

/**
 * Asaas's statement is its list of payments, paged by offset, in whole days of the account's time zone. A payment
 * belongs to the day Asaas booked its success: `paymentDate` for Pix and boleto, `confirmedDate` for a card, whose
 * `paymentDate` (and `creditDate`) may only come with the credit about 30 days later, or never when it is refunded
 * first (PROVIDER-CONTRACT.md, [U] until a sandbox shows otherwise). So the day is two lists, read as one set of
 * payments: those paid in the day, and the cards created in the CARD_PAID_WITHIN_DAYS up to its end. A creation
 * date never changes, so that list holds whatever a card's status became since and does not move while paged. Each
 * payment is kept once and only when its booking day is the run's. Every payment that took money is a charge line,
 * matched by its id or by `externalReference` (our attempt id); two payments under one reference are two lines,
 * which is how a duplicate created by a resend shows. Asaas gives a date, not a time: the line is placed at noon of
 * that day in the business's zone. A list that moved while it was paged throws StatementMovedError: the caller
 * reads the day again.
 */
export async function* asaasStatementLines(request: StatementRequest, timeZone: string, get: AsaasGet): AsyncGenerator<StatementLine> {
  const first = dayIn(timeZone, request.from);
  const last = dayIn(timeZone, new Date(request.to.getTime() - 1));
  const lists: Array<Record<string, string>> = [
    { 'paymentDate[ge]': first, 'paymentDate[le]': last },
    { billingType: 'CREDIT_CARD', 'dateCreated[ge]': addDays(first, -CARD_PAID_WITHIN_DAYS), 'dateCreated[le]': last },
  ];
  const seen = new Set<string>();
  for (const params of lists) {
    for await (const payments of asaasListPages('/v3/payments', params, get, request.signal)) {
      for (const raw of payments) {
        const line = lineFromPayment(raw, timeZone);
        if (!line || seen.has(line.lineId)) continue;
        const day = dayIn(timeZone, line.createdAt);
        if (day < first || day > last) continue;
        seen.add(line.lineId);
        yield line;
      }
    }
  }
}

/** The day Asaas booked a payment's success, or null when it shows none. */
function asaasBookingDay(raw: unknown): string | null {
  const { billingType, confirmedDate, paymentDate } = raw as { billingType?: unknown; confirmedDate?: unknown; paymentDate?: unknown };
  const day = billingType === 'CREDIT_CARD' ? (confirmedDate ?? paymentDate) : paymentDate;
  return typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

function lineFromPayment(raw: unknown, timeZone: string): StatementLine | null {
  const payment = readPayment(raw);
  const day = asaasBookingDay(raw);
  if (!payment || day === null) return null;
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
    createdAt: noonOf(day, timeZone),
  };
}
