import type { BalanceEntry } from './balance-transactions.store.js';

/** A balance transaction as Stripe returns it; `expandSource` inlines the Charge, Refund or Dispute. */
export function balanceTransactionJson(entry: BalanceEntry, expandSource: boolean): Record<string, unknown> {
  return {
    id: entry.id,
    object: 'balance_transaction',
    amount: entry.amount,
    available_on: entry.created,
    created: entry.created,
    currency: entry.currency,
    description: null,
    exchange_rate: null,
    fee: 0,
    fee_details: [],
    net: entry.amount,
    reporting_category: entry.category,
    source: expandSource ? sourceJson(entry) : entry.sourceId,
    status: 'available',
    type: entry.type,
  };
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

const ZERO_DECIMAL = new Set(['jpy', 'krw', 'clp', 'vnd', 'xaf', 'xof']);

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
    case 'net':
      return majorUnits(entry.amount, entry.currency);
    case 'fee':
      return majorUnits(0, entry.currency);
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
  if (ZERO_DECIMAL.has(currency)) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
