import { describe, expect, it } from 'vitest';
import { StatementLineFormatError, lineFromBalanceTransaction, majorToMinorUnits, reportRecordReader } from './stripe-statement.lines.js';

/** A report row given by column name, read as the reader does: its header's order, then its fields. */
function lineFromReportRow(row: Record<string, string | undefined>) {
  return reportRecordReader(Object.keys(row))(Object.values(row) as string[]);
}

describe('majorToMinorUnits: the report CSV gives major units, we keep minor units', () => {
  it.each([
    ['10.00', 'usd', 1000],
    ['10', 'usd', 1000],
    ['-12.5', 'usd', -1250],
    ['0.01', 'brl', 1],
    ['-0.00', 'usd', 0],
    ['1500', 'jpy', 1500],
    ['1.234', 'kwd', 1234],
    ['49.90', 'eur', 4990],
  ])('%s %s → %d', (decimal, currency, minor) => {
    expect(majorToMinorUnits(decimal, currency)).toBe(minor);
  });

  it.each([['1.001', 'usd'], ['abc', 'usd'], ['1,00', 'usd'], ['1.5', 'jpy'], ['', 'usd']])('refuses %s %s', (decimal, currency) => {
    expect(() => majorToMinorUnits(decimal, currency)).toThrow(StatementLineFormatError);
  });
});

describe('reportRecordReader', () => {
  const row = {
    balance_transaction_id: 'txn_1',
    created_utc: '2026-12-01 23:59:30',
    currency: 'usd',
    gross: '49.90',
    reporting_category: 'charge',
    source_id: 'ch_1',
    charge_id: 'ch_1',
    payment_intent_id: 'pi_1',
    'payment_metadata[attempt_id]': 'a1',
    'payment_metadata[charge_id]': 'c1',
  };

  it('reads a charge line with our references', () => {
    expect(lineFromReportRow(row)).toEqual({
      lineId: 'txn_1',
      kind: 'charge',
      providerChargeId: 'pi_1',
      attemptId: 'a1',
      chargeId: 'c1',
      amountCents: 4990,
      currency: 'usd',
      createdAt: new Date('2026-12-01T23:59:30Z'),
    });
  });

  it.each([
    ['refund', 'refund'],
    ['dispute', 'dispute'],
    ['dispute_reversal', 'dispute_reversal'],
    ['fee', 'other'],
    ['payout', 'other'],
  ])('category %s is kind %s', (category, kind) => {
    expect(lineFromReportRow({ ...row, reporting_category: category }).kind).toBe(kind);
  });

  it('falls back to the charge id when the line has no payment intent, and empty metadata is no reference', () => {
    const line = lineFromReportRow({ ...row, payment_intent_id: '', 'payment_metadata[attempt_id]': '' });
    expect(line.providerChargeId).toBe('ch_1');
    expect(line.attemptId).toBeNull();
  });

  it('refuses a row without an id or amount', () => {
    expect(() => lineFromReportRow({ ...row, balance_transaction_id: '' })).toThrow(StatementLineFormatError);
    expect(() => lineFromReportRow({ ...row, gross: undefined })).toThrow(StatementLineFormatError);
  });
});

describe('lineFromBalanceTransaction (expand[]=data.source)', () => {
  const base = { id: 'txn_1', object: 'balance_transaction', amount: 4990, currency: 'USD', created: 1764633600, type: 'charge', reporting_category: 'charge' };

  it('takes the intent and our metadata from the expanded charge', () => {
    const line = lineFromBalanceTransaction({ ...base, source: { id: 'ch_1', object: 'charge', payment_intent: 'pi_1', metadata: { attempt_id: 'a1', charge_id: 'c1' } } });
    expect(line).toEqual({
      lineId: 'txn_1', kind: 'charge', providerChargeId: 'pi_1', attemptId: 'a1', chargeId: 'c1',
      amountCents: 4990, currency: 'usd', createdAt: new Date(1764633600 * 1000),
    });
  });

  it('a refund names the payment it refunds, its own id, and only our refund attempt from its metadata', () => {
    const line = lineFromBalanceTransaction({
      ...base, amount: -1000, type: 'refund', reporting_category: 'refund',
      source: { id: 're_1', object: 'refund', charge: 'ch_1', payment_intent: 'pi_1', metadata: { attempt_id: 'x' } },
    });
    expect(line).toMatchObject({ kind: 'refund', providerChargeId: 'pi_1', attemptId: null, chargeId: null, reference: 're_1', amountCents: -1000 });
    const ours = lineFromBalanceTransaction({
      ...base, amount: -1000, type: 'refund', reporting_category: 'refund',
      source: { id: 're_2', object: 'refund', charge: 'ch_1', payment_intent: 'pi_1', metadata: { refund_attempt_id: 'a1', charge_id: 'c1' } },
    });
    expect(ours).toMatchObject({ attemptId: 'a1', chargeId: null, reference: 're_2' });
  });

  it('a dispute is an adjustment whose reporting category says dispute', () => {
    const line = lineFromBalanceTransaction({ ...base, amount: -4990, type: 'adjustment', reporting_category: 'dispute', source: { id: 'du_1', charge: 'ch_1', payment_intent: 'pi_1' } });
    expect(line).toMatchObject({ kind: 'dispute', providerChargeId: 'pi_1' });
  });

  it('refuses something that is not a balance transaction', () => {
    expect(() => lineFromBalanceTransaction({ id: 'txn_1' })).toThrow(StatementLineFormatError);
  });
});
