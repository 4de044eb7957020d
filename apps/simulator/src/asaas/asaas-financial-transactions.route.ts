import { asaasError } from './asaas-create-params.js';
import type { AsaasEngine } from './asaas-engine.js';
import type { AsaasPayment } from './asaas-payment.js';

/**
 * Asaas's account statement (extrato): `GET /v3/financialTransactions?startDate&finishDate&offset&limit`, the
 * account's money movements by day, paged like every Asaas list (`{object: 'list', hasMore, totalCount, data}`).
 * Sources, [V] verified in Asaas's own documentation, [S] seen in integrators' code, [U] unverified guess:
 * - [V] path, query `offset`, `limit` (max 100), `startDate`, `finishDate`, `order`; the `type` enum, among it
 *   `PAYMENT_RECEIVED` ("Cobrança recebida"), `PAYMENT_REVERSAL` ("Estorno de fatura"), `PAYMENT_REFUND_CANCELLED`
 *   and `REFUND_REQUEST_CANCELLED` ("Cancelamento do estorno de fatura"): docs.asaas.com "Recuperar extrato", as
 *   copied in public repositories (a copy of the page, and go-asaas's FinanceTransType enum, agree line by line).
 * - [S] entry fields `id, paymentId, transferId, type, value, balance, date, description`: go-asaas
 *   (GabrielHCataldo/go-asaas, AccountStatementResponse).
 * - [V] a payment's `refunds[]` carry `dateCreated, status (PENDING|CANCELLED|DONE), value, description,
 *   transactionReceiptUrl`, and no id: docs.asaas.com/docs/refunds.
 * - [U] a debit's `value` is negative; an entry is dated by the day its money moved; a refund's reversal entry
 *   appears once the refund is DONE. Our reader relies on none of these: it takes only `type` and `paymentId` from
 *   the extrato and reads the amounts from the payment's own `refunds[]`.
 * Modelled here: a received payment's credit on its payment date, and a DONE refund's debit on the day it turned
 * DONE, plus `asaasRefundBookingDelayDays` (or the day the control API names): a refund held PENDING, or booked
 * late, lands in the extrato on a later day than its `dateCreated`. A DONE refund cancelled afterwards keeps its
 * debit and adds a `PAYMENT_REFUND_CANCELLED` credit on the day it was cancelled [U].
 * Chargebacks, their reversals and custody blocks and releases are booked through the control API
 * (`bookAsaasMovement`) with the payment's value, negative for what is taken or held [U: the type names are those
 * issue 35 lists from Asaas's extrato type enum]. Fees, transfers and balance are left out; `balance` is not modelled.
 */
interface FinancialTransaction {
  object: 'financialTransaction';
  id: string;
  value: number;
  balance: null;
  type: 'PAYMENT_RECEIVED' | 'PAYMENT_REVERSAL' | 'PAYMENT_REFUND_CANCELLED' | 'CHARGEBACK' | 'CHARGEBACK_REVERSAL' | 'PAYMENT_CUSTODY_BLOCK' | 'PAYMENT_CUSTODY_BLOCK_REVERSAL';
  date: string;
  paymentId: string;
  description: string;
}

const RECEIVED = ['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUND_REQUESTED', 'REFUNDED', 'CHARGEBACK_REQUESTED'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

type RefundDay = (paymentId: string, index: number) => string | undefined;

function transactionsOf(payment: AsaasPayment, bookedOn: RefundDay, cancelledOn: RefundDay): FinancialTransaction[] {
  const entries: FinancialTransaction[] = [];
  const base = { object: 'financialTransaction' as const, balance: null, paymentId: payment.id };
  if (payment.paymentDate && RECEIVED.includes(payment.status)) {
    entries.push({ ...base, id: `ftr_${payment.id}_r`, value: payment.value, type: 'PAYMENT_RECEIVED', date: payment.paymentDate, description: `Cobrança recebida ${payment.id}` });
  }
  (payment.refunds ?? []).forEach((refund, index) => {
    const cancelled = cancelledOn(payment.id, index);
    if (refund.status !== 'DONE' && cancelled === undefined) return;
    const date = bookedOn(payment.id, index) ?? refund.dateCreated.slice(0, 10);
    entries.push({ ...base, id: `ftr_${payment.id}_${index}`, value: -refund.value, type: 'PAYMENT_REVERSAL', date, description: `Estorno de fatura ${payment.id}` });
    if (cancelled === undefined) return;
    entries.push({ ...base, id: `ftr_${payment.id}_${index}_c`, value: refund.value, type: 'PAYMENT_REFUND_CANCELLED', date: cancelled, description: `Cancelamento do estorno de fatura ${payment.id}` });
  });
  return entries;
}

/** The route's answer: 400 for a missing or malformed date or page, else the page of the days' movements, oldest first. */
export function listAsaasFinancialTransactions(engine: AsaasEngine, query: URLSearchParams): { status: number; body: unknown } {
  const [startDate, finishDate] = [query.get('startDate'), query.get('finishDate')];
  if (!startDate || !finishDate || !DAY.test(startDate) || !DAY.test(finishDate)) return { status: 400, body: asaasError('invalid_date', 'Informe startDate e finishDate no formato YYYY-MM-DD.') };
  const limit = Number(query.get('limit') ?? 10);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0) return { status: 400, body: asaasError('invalid_limit', 'Paginação inválida.') };
  engine.stats.countAsaasRequest('financialTransactions');
  const all = engine
    .payments()
    .flatMap((payment) => transactionsOf(payment, (id, index) => engine.refundBookedOn(id, index), (id, index) => engine.refundCancelledOn(id, index)))
    .concat(engine.bookedMovements().map((m) => ({ object: 'financialTransaction' as const, balance: null, description: `${m.type} ${m.paymentId}`, ...m })))
    .filter((entry) => entry.date >= startDate && entry.date <= finishDate)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  const data = all.slice(offset, offset + limit);
  return { status: 200, body: { object: 'list', hasMore: all.length > offset + limit, totalCount: all.length, limit, offset, data } };
}
