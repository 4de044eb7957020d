import { stripeMinorUnits } from '@app/gateways';
import type { BalanceEntry } from './balance-transactions.store.js';

/** A balance transaction as Stripe returns it; `expandSource` inlines the Charge, Refund or Dispute. */
export function balanceTransactionJson(entry: BalanceEntry, expandSource: boolean): Record<string, unknown> {
  return {
    id: entry.id,
    object: 'balance_transaction',
    amount: entry.amount,
    available_on: availableOn(entry),
    created: entry.created,
    currency: entry.currency,
    description: null,
    exchange_rate: null,
    fee: feeOf(entry),
    fee_details: feeOf(entry) === 0 ? [] : [{ amount: feeOf(entry), application: null, currency: entry.currency, description: 'Stripe processing fees', type: 'stripe_fee' }],
    net: entry.amount - feeOf(entry),
    reporting_category: entry.category,
    source: expandSource ? sourceJson(entry) : entry.sourceId,
    // Funds from a charge are pending until their available_on (two days here, as on a standard schedule).
    status: Math.floor(Date.now() / 1000) >= availableOn(entry) ? 'available' : 'pending',
    type: entry.type,
  };
}

const AVAILABLE_AFTER_S = 2 * 86_400;

/**
 * Stripe's fee on a charge as a standard US card price (2.9 % + 30 minor units; a percentage only for currencies
 * without minor units). Refunds and reversals carry none: Stripe keeps the original fee.
 */
function feeOf(entry: BalanceEntry): number {
  if (entry.category !== 'charge') return 0;
  return Math.round((entry.amount * 29) / 1000) + (stripeMinorUnits(entry.currency) === 0 ? 0 : 30);
}

function availableOn(entry: BalanceEntry): number {
  return entry.category === 'charge' ? entry.created + AVAILABLE_AFTER_S : entry.created;
}

function sourceJson(entry: BalanceEntry): Record<string, unknown> {
  const common = { id: entry.sourceId, currency: entry.currency, created: entry.created, payment_intent: entry.paymentIntentId };
  switch (entry.category) {
    case 'charge':
      return {
        ...common,
        object: 'charge',
        amount: entry.amount,
        amount_captured: entry.amount,
        captured: true,
        paid: true,
        status: 'succeeded',
        customer: entry.customer,
        metadata: entry.metadata,
      };
    case 'refund':
      return { ...common, object: 'refund', amount: -entry.amount, charge: entry.chargeId, status: 'succeeded', metadata: entry.sourceMetadata ?? {} };
    case 'refund_failure':
      return { ...common, object: 'refund', amount: entry.amount, charge: entry.chargeId, status: 'failed', failure_balance_transaction: entry.id, metadata: entry.sourceMetadata ?? {} };
    case 'dispute':
      return { ...common, object: 'dispute', amount: -entry.amount, charge: entry.chargeId, status: 'needs_response', metadata: {} };
  }
}

/**
 * Rows of the itemized balance change report, in the requested column order, with the column names read
 * once per file rather than once per line of a million-line file.
 */
export function reportCsvRowWriter(columns: readonly string[]): (entry: BalanceEntry) => string {
  const getters = columns.map((column): ((entry: BalanceEntry) => string) => {
    const metadataKey = /^payment_metadata\[(.+)\]$/.exec(column)?.[1];
    if (metadataKey !== undefined) return (entry) => entry.metadata[metadataKey] ?? '';
    return (entry) => reportValue(entry, column);
  });
  return (entry) => {
    let row = '';
    for (let i = 0; i < getters.length; i += 1) row += (i === 0 ? '' : ',') + csvField(getters[i](entry));
    return row;
  };
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function reportValue(entry: BalanceEntry, column: string): string {
  const metadataKey = /^payment_metadata\[(.+)\]$/.exec(column)?.[1];
  if (metadataKey !== undefined) return entry.metadata[metadataKey] ?? '';
  switch (column) {
    case 'balance_transaction_id':
      return entry.id;
    case 'created_utc':
      return new Date(entry.created * 1000).toISOString().slice(0, 19).replace('T', ' ');
    case 'created':
      return String(entry.created);
    case 'currency':
      return entry.currency;
    case 'gross':
      return majorUnits(entry.amount, entry.currency);
    case 'net':
      return majorUnits(entry.amount - feeOf(entry), entry.currency);
    case 'fee':
      return majorUnits(feeOf(entry), entry.currency);
    case 'reporting_category':
      return entry.category;
    case 'source_id':
      return entry.sourceId;
    case 'charge_id':
      return entry.chargeId;
    case 'payment_intent_id':
      return entry.paymentIntentId;
    case 'customer_id':
      return entry.customer ?? '';
    default:
      return '';
  }
}

/** The report's money format: major units as a decimal (10 USD is "10.00"). */
function majorUnits(minor: number, currency: string): string {
  const exponent = stripeMinorUnits(currency);
  if (exponent === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
