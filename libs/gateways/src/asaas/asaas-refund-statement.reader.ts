import { isRecord } from '@app/common';
import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { readStatementPage, type PageReading } from '../statement/statement-page.retry.js';
import { reaisToCents } from './asaas-amount.js';
import { dayIn, noonOf, wallClockIn } from './asaas-days.js';
import { asaasListPages, type AsaasGet } from './asaas-list.pages.js';
import { readPayment } from './asaas-payment.response.js';
import { asaasRefundId, refundAttemptIn } from './asaas-refund.js';

/**
 * Asaas's refunds of a day. Its payments list is filtered by payment date, so a refund of last week's payment is
 * never in it; its account statement (extrato, `GET /v3/financialTransactions?startDate&finishDate`) is by the
 * day money moved. An extrato entry names the payment (`paymentId`) but not which of its refunds it is, so each
 * payment an entry of a refund type names is read (`GET /v3/payments/{id}`) and its `refunds[]` (status, value,
 * dateCreated, and the description that carries our attempt id) become the lines: every DONE refund of it,
 * whoever asked for it, dated by its `dateCreated`. A refund PENDING or CANCELLED moved no money and is no refund
 * line; a CANCELLED one carrying our attempt is a `refund_cancelled` line, so a success of ours Asaas cancelled
 * (even after DONE: `PAYMENT_REFUND_CANCELLED` names its payment) reaches a person instead of being dropped.
 * A refund enters the extrato once DONE, which may be days after its `dateCreated` [U]: so every DONE refund of a
 * named payment is a line whatever its date (the matcher classifies those dated before the day, and keys them by
 * refund id, so two days that see one refund count it once). The extrato is read for the day alone: our refund of
 * the day booked later is missing at its run and closed by the run of the day that books it (found-later).
 * Reading the next day too found only what was booked before the nightly run (02:00), at the price of paging a day
 * still moving (StatementMovedError, up to failing the run) and of twice the entries of a day read after the fact.
 */
const REFUND_ENTRY_TYPES = new Set(['PAYMENT_REVERSAL', 'PAYMENT_REFUND_CANCELLED', 'REFUND_REQUEST_CANCELLED']);

/**
 * Extrato entries that move a payment's money back or hold it, other than refunds: each is a line of its own, read
 * from the entry (its id, day and value), so a person sees it with its evidence. A chargeback (or a Pix the payer's
 * bank took back, `PIX_TRANSACTION_CREDIT_REFUND`; a generic `REVERSAL`) takes the money, its reversal gives it
 * back; a custody block holds a payment's money (a cautionary block on a Pix) until its reversal releases it.
 */
const MONEY_BACK_ENTRY_KINDS: Record<string, { kind: StatementLine['kind']; sign: -1 | 1 }> = {
  CHARGEBACK: { kind: 'dispute', sign: -1 },
  REVERSAL: { kind: 'dispute', sign: -1 },
  PIX_TRANSACTION_CREDIT_REFUND: { kind: 'dispute', sign: -1 },
  CHARGEBACK_REVERSAL: { kind: 'dispute_reversal', sign: 1 },
  PAYMENT_CUSTODY_BLOCK: { kind: 'custody_block', sign: -1 },
  PAYMENT_CUSTODY_BLOCK_REVERSAL: { kind: 'custody_release', sign: 1 },
};

export async function* asaasRefundLines(request: StatementRequest, timeZone: string, get: AsaasGet): AsyncGenerator<StatementLine> {
  const days = { startDate: dayIn(timeZone, request.from), finishDate: dayIn(timeZone, new Date(request.to.getTime() - 1)) };
  // Few per day (refunds, not payments): the ids are kept, the entries are not.
  const refunded = new Set<string>();
  for await (const entries of asaasListPages('/v3/financialTransactions', days, get, request.signal)) {
    for (const entry of entries) {
      if (isRecord(entry) && typeof entry.type === 'string' && Object.hasOwn(MONEY_BACK_ENTRY_KINDS, entry.type)) {
        yield moneyBackLine(entry, timeZone);
        continue;
      }
      if (!isRecord(entry) || typeof entry.type !== 'string' || !REFUND_ENTRY_TYPES.has(entry.type)) continue;
      // A refund entry that names no payment cannot be matched: the day is unreadable, not clean.
      if (typeof entry.paymentId !== 'string') throw new Error(`asaas extrato entry ${String(entry.id)} of type ${entry.type} names no payment`);
      refunded.add(entry.paymentId);
    }
  }
  for (const paymentId of refunded) {
    const payment = await readStatementPage(() => get(`/v3/payments/${encodeURIComponent(paymentId)}`, {}), (body) => readRefundedPayment(paymentId, body), request.signal);
    yield* asaasRefundLinesOf(payment, timeZone);
  }
}

/** A chargeback, its reversal or a custody block or release, as the extrato wrote it: unreadable fails the day. */
function moneyBackLine(entry: Record<string, unknown>, timeZone: string): StatementLine {
  const { kind, sign } = MONEY_BACK_ENTRY_KINDS[entry.type as string];
  const cents = reaisToCents(typeof entry.value === 'number' ? Math.abs(entry.value) : entry.value);
  const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : null;
  if (!id || typeof entry.paymentId !== 'string' || typeof entry.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(entry.date) || !Number.isSafeInteger(cents)) {
    throw new Error(`asaas extrato entry ${String(entry.id)} of type ${String(entry.type)} is unreadable (id, paymentId, date or value)`);
  }
  return {
    lineId: `asaas-ftr:${id}`,
    kind,
    providerChargeId: entry.paymentId,
    attemptId: null,
    chargeId: null,
    amountCents: sign * cents,
    currency: 'brl',
    createdAt: noonOf(entry.date, timeZone),
    reference: id,
    providerStatus: entry.type as string,
  };
}

export interface RefundedPayment {
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

/**
 * Every DONE refund of the payment as a line (a refund not DONE moved no money and names nothing). Ours is named by
 * our attempt. One we did not ask for (Asaas gives a refund no id) by what Asaas shows of it, `dateCreated` and
 * value, and its place among the payment's DONE refunds of those two that are not ours, in the list's order: a
 * group of k such refunds is always named `:1`..`:k`, so its total stands whatever order Asaas lists them in, and a
 * refund PENDING, CANCELLED or ours beside them renames nothing. The ids stored before this rule (numbered among
 * the DONE refunds of that second and value, ours included) are the same unless a refund of ours shares both.
 * Two DONE refunds carrying one attempt of ours are two refunds of real money (Asaas took our refund twice): the
 * first keeps our attempt's id, each further one is its own line (`:2`, ...) linked to no attempt, so it is a
 * refund we did not make and lowers the charge's cap.
 */
export function* asaasRefundLinesOf(payment: RefundedPayment, timeZone: string): Generator<StatementLine> {
  const seen = new Map<string, number>();
  yield* cancelledRefundsOfOurs(payment, timeZone);
  for (const refund of payment.refunds) {
    if (!isRecord(refund) || refund.status !== 'DONE') continue;
    const ourAttempt = refundAttemptIn(refund.description);
    const key = ourAttempt ? asaasRefundId(payment.id, ourAttempt) : `${payment.id}:refund:${String(refund.dateCreated)}:${reaisToCents(refund.value)}`;
    const nth = (seen.get(key) ?? 0) + 1;
    seen.set(key, nth);
    const attemptId = nth === 1 ? ourAttempt : null;
    const refundId = ourAttempt && nth === 1 ? key : `${key}:${nth}`;
    const { createdAt, amountCents } = readableRefund(payment.id, refund, timeZone);
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

/**
 * Each CANCELLED refund carrying our attempt, as a `refund_cancelled` line keyed by our refund's id (`reference`):
 * the matcher puts one whose attempt we recorded succeeded to a person. Numbered (`:cancelled:1`, ...) so two
 * cancelled refunds of one attempt are two lines of one refund id. A panel refund CANCELLED concerns no record of
 * ours and is no line.
 */
function* cancelledRefundsOfOurs(payment: RefundedPayment, timeZone: string): Generator<StatementLine> {
  const seen = new Map<string, number>();
  for (const refund of payment.refunds) {
    if (!isRecord(refund) || refund.status !== 'CANCELLED') continue;
    const ourAttempt = refundAttemptIn(refund.description);
    if (!ourAttempt) continue;
    const refundId = asaasRefundId(payment.id, ourAttempt);
    const nth = (seen.get(refundId) ?? 0) + 1;
    seen.set(refundId, nth);
    const { createdAt, amountCents } = readableRefund(payment.id, refund, timeZone);
    yield {
      lineId: `${refundId}:cancelled:${nth}`,
      kind: 'refund_cancelled',
      providerChargeId: payment.id,
      attemptId: ourAttempt,
      chargeId: null,
      amountCents: -amountCents,
      currency: 'brl',
      createdAt,
      reference: refundId,
      providerStatus: 'CANCELLED',
    };
  }
}

function readableRefund(paymentId: string, refund: Record<string, unknown>, timeZone: string): { createdAt: Date; amountCents: number } {
  const createdAt = typeof refund.dateCreated === 'string' ? wallClockIn(refund.dateCreated, timeZone) : null;
  const amountCents = reaisToCents(refund.value);
  if (!createdAt || !Number.isSafeInteger(amountCents)) throw new Error(`asaas payment ${paymentId} has a refund with an unreadable dateCreated or value`);
  return { createdAt, amountCents };
}
