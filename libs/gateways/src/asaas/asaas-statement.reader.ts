import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { StatementMovedError } from '../statement.errors.js';
import { readStatementPage, type PageReading, type StatementPage } from '../statement/statement-page.retry.js';
import { readPayment } from './asaas-payment.response.js';
import { mapAsaasPaymentStatus } from './asaas-status.js';
import { dayIn, noonOf } from './asaas-days.js';

const PAGE_SIZE = 100;

/**
 * Asaas's statement is its list of payments received in a date range (`paymentDate[ge]`/`[le]`, whole days in
 * the account's time zone), paged by offset. Every payment that took money is a charge line, matched by its id
 * or by `externalReference` (our attempt id); two payments under one reference are two lines, which is how a
 * duplicate created by a resend shows. Asaas gives a payment date, not a time: the line is placed at noon of
 * that day in the business's zone, inside the day the run covers. A list that moved while it was paged throws
 * StatementMovedError: the caller reads the day again from the start.
 */
export async function* asaasStatementLines(
  request: StatementRequest,
  timeZone: string,
  get: (path: string, params: Record<string, string>) => Promise<StatementPage>,
): AsyncGenerator<StatementLine> {
  const range = { 'paymentDate[ge]': dayIn(timeZone, request.from), 'paymentDate[le]': dayIn(timeZone, new Date(request.to.getTime() - 1)) };
  let totalCount: number | null = null;
  let seen = 0;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await readStatementPage(() => get('/v3/payments', { ...range, offset: String(offset), limit: String(PAGE_SIZE) }), readPaymentsPage, request.signal);
    // Offset paging shifts under a list that changes: one total on every page, and as many payments as it says.
    totalCount ??= page.totalCount;
    if (page.totalCount !== totalCount) throw new StatementMovedError(`asaas payments list moved while paged: totalCount ${totalCount}, then ${page.totalCount}`);
    seen += page.data.length;
    for (const raw of page.data) {
      const line = lineFromPayment(raw, timeZone);
      if (line) yield line;
    }
    if (!page.hasMore) break;
  }
  if (seen !== totalCount) throw new StatementMovedError(`asaas payments list read ${seen} payments, its totalCount says ${totalCount}`);
}

/** A page of the payments list: only a list with a `totalCount` proves where the day ends. */
function readPaymentsPage(body: Record<string, unknown>): PageReading<{ data: unknown[]; hasMore: boolean; totalCount: number }> {
  const { data, hasMore, totalCount } = body;
  if (body.object !== 'list' || !Array.isArray(data)) return { ok: false, message: 'asaas payments answered 2xx without a list' };
  if (typeof totalCount !== 'number' || !Number.isSafeInteger(totalCount)) return { ok: false, message: 'asaas payments page without a totalCount' };
  if (hasMore === true && data.length === 0) return { ok: false, message: 'asaas payments says hasMore on an empty page' };
  return { ok: true, page: { data, hasMore: hasMore === true, totalCount } };
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
