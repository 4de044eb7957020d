import { isRecord } from '@app/common';
import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { readStatementPage, type PageReading } from '../statement/statement-page.retry.js';
import { reaisToCents } from './asaas-amount.js';
import { dayIn, wallClockIn } from './asaas-days.js';
import { asaasListPages, type AsaasGet } from './asaas-list.pages.js';
import { readPayment } from './asaas-payment.response.js';
import { asaasRefundId, refundAttemptIn } from './asaas-refund.js';

/**
 * Asaas's refunds of a day. Its payments list is filtered by payment date, so a refund of last week's payment is
 * never in it; its account statement (extrato, `GET /v3/financialTransactions?startDate&finishDate`) is by the
 * day money moved. An extrato entry names the payment (`paymentId`) but not which of its refunds it is, so each
 * payment an entry of a refund type names is read (`GET /v3/payments/{id}`) and its `refunds[]` (status, value,
 * dateCreated, and the description that carries our attempt id) become the lines: every DONE refund created in
 * the day, whoever asked for it. A refund PENDING or CANCELLED moved no money and is no line.
 */
const REFUND_ENTRY_TYPES = new Set(['PAYMENT_REVERSAL', 'PAYMENT_REFUND_CANCELLED', 'REFUND_REQUEST_CANCELLED']);

export async function* asaasRefundLines(request: StatementRequest, timeZone: string, get: AsaasGet): AsyncGenerator<StatementLine> {
  const days = { startDate: dayIn(timeZone, request.from), finishDate: dayIn(timeZone, new Date(request.to.getTime() - 1)) };
  // Few per day (refunds, not payments): the ids are kept, the entries are not.
  const refunded = new Set<string>();
  for await (const entries of asaasListPages('/v3/financialTransactions', days, get, request.signal)) {
    for (const entry of entries) {
      if (!isRecord(entry) || typeof entry.type !== 'string' || !REFUND_ENTRY_TYPES.has(entry.type)) continue;
      // A refund entry that names no payment cannot be matched: the day is unreadable, not clean.
      if (typeof entry.paymentId !== 'string') throw new Error(`asaas extrato entry ${String(entry.id)} of type ${entry.type} names no payment`);
      refunded.add(entry.paymentId);
    }
  }
  for (const paymentId of refunded) {
    const payment = await readStatementPage(() => get(`/v3/payments/${encodeURIComponent(paymentId)}`, {}), (body) => readRefundedPayment(paymentId, body), request.signal);
    yield* refundLinesOf(payment, (at) => at >= request.from && at < request.to, timeZone);
  }
}

interface RefundedPayment {
  id: string;
  externalReference: string | null;
  refunds: unknown[];
}

/** The payment the extrato named, with a refund list: anything else is a failed read, never "no refunds". */
function readRefundedPayment(paymentId: string, body: Record<string, unknown>): PageReading<RefundedPayment> {
  const payment = readPayment(body);
  if (!payment || payment.id !== paymentId) return { ok: false, message: `asaas payment ${paymentId} answered 2xx without that payment` };
  if (!Array.isArray(body.refunds)) return { ok: false, message: `asaas payment ${paymentId} has a refund in the extrato but no refunds list` };
  return { ok: true, page: { id: payment.id, externalReference: payment.externalReference, refunds: body.refunds } };
}

function* refundLinesOf(payment: RefundedPayment, inDay: (at: Date) => boolean, timeZone: string): Generator<StatementLine> {
  // Refunds we did not ask for carry no id of ours: named by their place among the payment's refunds of that
  // instant and value, which a later refund does not change.
  const seen = new Map<string, number>();
  for (const refund of payment.refunds) {
    if (!isRecord(refund) || refund.status !== 'DONE') continue;
    const createdAt = typeof refund.dateCreated === 'string' ? wallClockIn(refund.dateCreated, timeZone) : null;
    const amountCents = reaisToCents(refund.value);
    if (!createdAt || !Number.isSafeInteger(amountCents)) throw new Error(`asaas payment ${payment.id} has a refund with an unreadable dateCreated or value`);
    if (!inDay(createdAt)) continue;
    const attemptId = refundAttemptIn(refund.description);
    const key = `${String(refund.dateCreated)}:${amountCents}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const refundId = attemptId ? asaasRefundId(payment.id, attemptId) : `${payment.id}:refund:${key}:${nth}`;
    yield {
      lineId: refundId,
      kind: 'refund',
      providerChargeId: payment.id,
      attemptId,
      chargeId: null,
      amountCents: -amountCents,
      currency: 'brl',
      createdAt,
      reference: refundId,
      providerStatus: 'DONE',
    };
  }
}
