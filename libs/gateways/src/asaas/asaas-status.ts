import type { ProviderOutcome } from '../gateway-call.result.js';

/** Every Asaas payment status provider-contracts.md §3 lists. */
export const ASAAS_PAYMENT_STATUSES = [
  'PENDING', 'AWAITING_RISK_ANALYSIS', 'DUNNING_REQUESTED', 'OVERDUE',
  'RECEIVED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED', 'CONFIRMED',
  'REFUND_REQUESTED', 'REFUND_IN_PROGRESS', 'REFUNDED',
  'CHARGEBACK_REQUESTED', 'CHARGEBACK_DISPUTE', 'AWAITING_CHARGEBACK_REVERSAL',
] as const;
export type AsaasPaymentStatus = (typeof ASAAS_PAYMENT_STATUSES)[number];

const OUTCOME_BY_STATUS: Record<AsaasPaymentStatus, ProviderOutcome> = {
  PENDING: 'pending',
  AWAITING_RISK_ANALYSIS: 'pending',
  DUNNING_REQUESTED: 'pending',
  // A boleto past its due date can often still be paid: failing it would let a new attempt create a
  // second payment the customer might also pay. It stays open until paid, or until the grace after its due
  // date ends and it is cancelled at Asaas first (AwaitingPaymentHandler).
  OVERDUE: 'pending',
  RECEIVED: 'succeeded',
  RECEIVED_IN_CASH: 'succeeded',
  DUNNING_RECEIVED: 'succeeded',
  // Money taken, not yet available (for Pix of natural persons, possibly a cautionary block that ends in
  // RECEIVED or REFUNDED): for "did we charge the customer" it is a success.
  CONFIRMED: 'succeeded',
  // Refunds and chargebacks happen to a payment that succeeded; the refund/dispute flags are later work.
  REFUND_REQUESTED: 'succeeded',
  REFUND_IN_PROGRESS: 'succeeded',
  REFUNDED: 'succeeded',
  CHARGEBACK_REQUESTED: 'succeeded',
  CHARGEBACK_DISPUTE: 'succeeded',
  AWAITING_CHARGEBACK_REVERSAL: 'succeeded',
};

/**
 * Maps an Asaas payment onto our outcome (provider-contracts.md §3, "Status → our state"). A deleted
 * payment is a cancelled one, whatever its last status. An unrecognised status returns null so callers
 * treat it as proving nothing.
 */
export function mapAsaasPaymentStatus(status: unknown, deleted: boolean): ProviderOutcome | null {
  if (deleted) return 'failed';
  if (typeof status !== 'string' || !Object.hasOwn(OUTCOME_BY_STATUS, status)) return null;
  return OUTCOME_BY_STATUS[status as AsaasPaymentStatus];
}
