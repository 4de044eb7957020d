import type Stripe from 'stripe';
import type { StatementLine, StatementLineKind } from '../statement/statement-line.js';
import { wire } from './stripe-wire.js';
import { stripeMinorUnits } from './stripe.currencies.js';

/**
 * Stripe's itemized balance change report, as checked against Stripe's reporting documentation on 2026-12-02:
 * - docs.stripe.com/reports/api ("How the Reports API works"): a report run takes `interval_start` (inclusive)
 *   and `interval_end` (exclusive) as Unix timestamps, and optional `columns`; when `status` is `succeeded`,
 *   `result` is a File whose `url` serves the CSV. "The CSV reports format monetary amounts in major currency
 *   units as a decimal number" (10 USD is `10.00`), unlike the API's integer minor units.
 * - docs.stripe.com/api/reporting/report_run: `status` is `pending`, then `succeeded` (with `result`) or
 *   `failed` (with `error`).
 * - Report type `balance_change_from_activity.itemized.3` (the Balance report type page lists it under
 *   "Balance change from activity"); its columns include `balance_transaction_id`, `created_utc`, `currency`,
 *   `gross`, `net`, `fee`, `reporting_category`, `source_id`, `charge_id`, `payment_intent_id` and one
 *   `payment_metadata[<key>]` column per metadata key asked for (confirmed by a published call of
 *   `reportRuns.create` asking for exactly these names).
 * - docs.stripe.com/reports/reporting-categories: `reporting_category` splits `type=adjustment` into `dispute`,
 *   `dispute_reversal`, etc.; `charge` and `refund` are categories of their own.
 * Some report types need a live-mode key; test mode may refuse them, so `source: 'api'` remains available.
 */
export const STRIPE_REPORT_TYPE = 'balance_change_from_activity.itemized.3';
export const STRIPE_REPORT_COLUMNS = [
  'balance_transaction_id',
  'created_utc',
  'currency',
  'gross',
  'reporting_category',
  'source_id',
  'charge_id',
  'payment_intent_id',
  'payment_metadata[attempt_id]',
  'payment_metadata[charge_id]',
] as const;

const KIND_BY_CATEGORY: Record<string, StatementLineKind> = {
  charge: 'charge',
  refund: 'refund',
  // The reversal of a refund that failed after Stripe wrote its refund line (`failure_balance_transaction`).
  refund_failure: 'refund_failure',
  dispute: 'dispute',
  dispute_reversal: 'dispute_reversal',
};


export class StatementLineFormatError extends Error {}

/** `"-12.50"` usd → -1250, exactly (no floating point), refusing anything that is not a plain decimal. */
export function majorToMinorUnits(decimal: string, currency: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new StatementLineFormatError(`not a decimal amount: "${decimal}"`);
  const exponent = stripeMinorUnits(currency);
  const fraction = match[3] ?? '';
  if (fraction.replace(/0+$/, '').length > exponent) throw new StatementLineFormatError(`"${decimal}" has more decimals than ${currency} allows`);
  const minor = Number(match[2] + fraction.padEnd(exponent, '0').slice(0, exponent));
  if (!Number.isSafeInteger(minor)) throw new StatementLineFormatError(`amount out of range: "${decimal}"`);
  return match[1] === '-' && minor !== 0 ? -minor : minor;
}

/**
 * Reads the report's records after its header: each record (fields in the header's order) becomes a statement
 * line, its columns found by the position the header gave them, with no object built per row.
 */
export function reportRecordReader(header: readonly string[]): (fields: readonly string[]) => StatementLine {
  const positions = new Map(header.map((name, i) => [name, i]));
  return (fields) =>
    lineFromReportColumns((column) => {
      const i = positions.get(column);
      return i === undefined ? undefined : fields[i];
    });
}

type ReportColumn = (typeof STRIPE_REPORT_COLUMNS)[number];

/** One row of the itemized report as a statement line, its columns read by name. */
function lineFromReportColumns(column: (name: ReportColumn) => string | undefined): StatementLine {
  const lineId = required(column, 'balance_transaction_id');
  const currency = required(column, 'currency').toLowerCase();
  // created_utc is "YYYY-MM-DD HH:MM:SS" in UTC.
  const createdAt = new Date(`${required(column, 'created_utc').replace(' ', 'T')}Z`);
  if (Number.isNaN(createdAt.getTime())) throw new StatementLineFormatError(`bad created_utc in ${lineId}`);
  const kind = KIND_BY_CATEGORY[column('reporting_category') ?? ''] ?? 'other';
  return {
    lineId,
    kind,
    providerChargeId: present(column('payment_intent_id')) ?? present(column('charge_id')),
    // The report carries the payment's metadata only: a refund line is known by its refund id alone.
    attemptId: isRefundKind(kind) ? null : present(column('payment_metadata[attempt_id]')),
    chargeId: isRefundKind(kind) ? null : present(column('payment_metadata[charge_id]')),
    amountCents: majorToMinorUnits(required(column, 'gross'), currency),
    currency,
    createdAt,
    ...(isRefundKind(kind) ? { reference: present(column('source_id')) } : {}),
  };
}

/** A refund line, or the reversal of one: both are known by the refund's own id. */
function isRefundKind(kind: StatementLineKind): boolean {
  return kind === 'refund' || kind === 'refund_failure';
}

/**
 * A balance transaction listed with `expand[]=data.source`: the source is the Charge (with `payment_intent`
 * and the payment's metadata), the Refund or the Dispute (each with `payment_intent` and `charge`).
 */
export function lineFromBalanceTransaction(raw: unknown): StatementLine {
  const txn = wire<Stripe.BalanceTransaction>(raw) ?? {};
  const lineId = typeof txn.id === 'string' ? txn.id : '';
  if (!lineId || typeof txn.amount !== 'number' || typeof txn.currency !== 'string' || typeof txn.created !== 'number') {
    throw new StatementLineFormatError(`not a balance transaction: ${JSON.stringify(raw).slice(0, 200)}`);
  }
  const category = typeof txn.reporting_category === 'string' ? txn.reporting_category : String(txn.type);
  const kind = KIND_BY_CATEGORY[category] ?? 'other';
  // The expanded source is the Charge, the Refund or the Dispute, each read by its own official type.
  const source = kind === 'charge' ? wire<Stripe.Charge>(txn.source) : isRefundKind(kind) ? wire<Stripe.Refund>(txn.source) : wire<Stripe.Dispute>(txn.source);
  const metadata = record(source?.metadata);
  const paymentIntent = idOf(source?.payment_intent);
  const charge = kind === 'charge' ? idOf(source?.id) : idOf(wire<Stripe.Refund | Stripe.Dispute>(source)?.charge);
  return {
    lineId,
    kind,
    providerChargeId: paymentIntent ?? charge,
    // A refund's own metadata names our refund attempt (refund_attempt_id), never the payment's; a dispute's, nothing of ours.
    attemptId: kind === 'charge' ? present(metadata.attempt_id) : isRefundKind(kind) ? present(metadata.refund_attempt_id) : null,
    chargeId: kind === 'charge' ? present(metadata.charge_id) : null,
    amountCents: txn.amount,
    currency: txn.currency.toLowerCase(),
    createdAt: new Date(txn.created * 1000),
    // The refund's own id (re_...), which our refund attempt learnt when the provider answered.
    ...(isRefundKind(kind) ? { reference: idOf(txn.source) } : {}),
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** An expandable field: either the id or the expanded object. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return present(value);
  return typeof value === 'object' && value !== null ? present((value as { id?: unknown }).id) : null;
}

function present(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function required(column: (name: ReportColumn) => string | undefined, name: ReportColumn): string {
  const value = column(name);
  if (value === undefined || value === '') throw new StatementLineFormatError(`report row without ${name}`);
  return value;
}
