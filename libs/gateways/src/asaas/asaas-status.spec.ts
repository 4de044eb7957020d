import { describe, expect, it } from 'vitest';
import { ASAAS_PAYMENT_STATUSES, mapAsaasPaymentStatus } from './asaas-status.js';

describe('mapAsaasPaymentStatus', () => {
  it.each([
    ['PENDING', false, 'pending'],
    ['AWAITING_RISK_ANALYSIS', false, 'pending'],
    ['DUNNING_REQUESTED', false, 'pending'],
    ['OVERDUE', false, 'pending'],
    ['RECEIVED', false, 'succeeded'],
    ['RECEIVED_IN_CASH', false, 'succeeded'],
    ['DUNNING_RECEIVED', false, 'succeeded'],
    ['CONFIRMED', false, 'succeeded'],
    ['REFUND_REQUESTED', false, 'succeeded'],
    ['REFUND_IN_PROGRESS', false, 'succeeded'],
    ['REFUNDED', false, 'succeeded'],
    ['CHARGEBACK_REQUESTED', false, 'succeeded'],
    ['CHARGEBACK_DISPUTE', false, 'succeeded'],
    ['AWAITING_CHARGEBACK_REVERSAL', false, 'succeeded'],
    ['PENDING', true, 'failed'],
    ['RECEIVED', true, 'failed'],
    ['SOMETHING_NEW', false, null],
    [undefined, false, null],
    ['toString', false, null],
  ])('%s (deleted=%s) → %s', (status, deleted, outcome) => {
    expect(mapAsaasPaymentStatus(status, deleted)).toBe(outcome);
  });

  it('maps every documented status', () => {
    for (const status of ASAAS_PAYMENT_STATUSES) expect(mapAsaasPaymentStatus(status, false)).not.toBeNull();
  });
});
