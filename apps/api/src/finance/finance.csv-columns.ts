import type { DivergenceView, RefundProposalView } from '@app/reconciliation';
import type { CsvColumn } from './csv.js';

/** Columns of the exports, snake_case as finance's spreadsheets name them; money in integer minor units. */
export const DIVERGENCE_COLUMNS: Array<CsvColumn<DivergenceView>> = [
  { header: 'id', value: (d) => d.id },
  { header: 'day', value: (d) => d.day },
  { header: 'provider', value: (d) => d.provider },
  { header: 'kind', value: (d) => d.kind },
  { header: 'status', value: (d) => d.status },
  { header: 'provider_charge_id', value: (d) => d.providerChargeId },
  { header: 'charge_id', value: (d) => d.chargeId },
  { header: 'payout_id', value: (d) => d.payoutId },
  { header: 'attempt_id', value: (d) => d.attemptId },
  { header: 'amount_cents', value: (d) => d.amountCents },
  { header: 'currency', value: (d) => d.currency },
  { header: 'note', value: (d) => d.note },
  { header: 'acknowledged_by', value: (d) => d.acknowledgedBy },
  { header: 'acknowledged_at', value: (d) => d.acknowledgedAt },
];

export const REFUND_PROPOSAL_COLUMNS: Array<CsvColumn<RefundProposalView>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'created_at', value: (p) => p.createdAt },
  { header: 'provider', value: (p) => p.provider },
  { header: 'provider_charge_id', value: (p) => p.providerChargeId },
  { header: 'charge_id', value: (p) => p.chargeId },
  { header: 'amount_cents', value: (p) => p.amountCents },
  { header: 'currency', value: (p) => p.currency },
  { header: 'reason', value: (p) => p.reason },
  { header: 'state', value: (p) => p.state },
  { header: 'approved_by', value: (p) => p.approvedBy },
  { header: 'decided_by', value: (p) => p.decidedBy },
  { header: 'decided_at', value: (p) => p.decidedAt },
  { header: 'decision_note', value: (p) => p.decisionNote },
  { header: 'refund_id', value: (p) => p.refundId },
];
