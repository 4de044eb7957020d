import type { ReconciliationDivergenceEntity, ReconciliationRunEntity, ReconciliationRunStatus, RefundProposalEntity } from '@app/database';

export interface RunView {
  id: string;
  provider: string;
  date: string;
  source: 'api' | 'report';
  trigger: 'scheduled' | 'manual';
  status: ReconciliationRunStatus;
  linesRead: number;
  matched: number;
  settled: number;
  divergences: Record<string, number>;
  executions: number;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

export interface DivergenceView {
  id: string;
  runId: string;
  kind: string;
  provider: string;
  day: string;
  providerChargeId: string | null;
  chargeId: string | null;
  /** Set instead of chargeId when the line is a Pix transfer of a payout gateway's statement. */
  payoutId: string | null;
  attemptId: string | null;
  amountCents: number;
  currency: string;
  status: 'open' | 'acknowledged';
  detail: object;
  note: string | null;
  acknowledgedBy: string | null;
  acknowledgedAt: Date | null;
}

export interface RefundProposalView {
  id: string;
  /** The divergence it comes from, or null when a reviewer proposed it (reviewItemId). */
  divergenceId: string | null;
  reviewItemId: string | null;
  provider: string;
  providerChargeId: string;
  chargeId: string | null;
  amountCents: number;
  currency: string;
  reason: string;
  state: string;
  /** The first of two admins of a large proposal (it is `awaiting_second` until another executes it). */
  approvedBy: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  /** The refund that executed it, once approved. */
  refundId: string | null;
  createdAt: Date;
}

/** A provider's days still open in the catch-up window, for the console and the gauges. */
export interface OpenDaysView {
  provider: string;
  /** Every day of the window before this instant has a succeeded run. */
  reconciledThrough: Date;
  /** Oldest first. `status`: the latest run's (`failed`, `waiting`, `running`), or `not_tried`. */
  days: Array<{ day: string; status: string; error: string | null; failedRuns: number }>;
}

export function runView(run: ReconciliationRunEntity): RunView {
  return {
    id: run.id,
    provider: run.provider,
    date: run.day,
    source: run.source,
    trigger: run.trigger,
    status: run.status,
    linesRead: run.linesRead,
    matched: run.matched,
    settled: run.settled,
    divergences: run.divergenceCounts,
    executions: run.executions,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    error: run.error,
  };
}

export function divergenceView(d: ReconciliationDivergenceEntity): DivergenceView {
  return {
    id: d.id,
    runId: d.runId,
    kind: d.kind,
    provider: d.provider,
    day: d.day,
    providerChargeId: d.providerChargeId,
    chargeId: d.chargeId,
    payoutId: d.payoutId,
    attemptId: d.attemptId,
    amountCents: d.amountCents,
    currency: d.currency,
    status: d.status,
    detail: d.detail,
    note: d.note,
    acknowledgedBy: d.acknowledgedBy,
    acknowledgedAt: d.acknowledgedAt,
  };
}

export function refundProposalView(p: RefundProposalEntity): RefundProposalView {
  return {
    id: p.id,
    divergenceId: p.divergenceId,
    reviewItemId: p.reviewItemId,
    provider: p.provider,
    providerChargeId: p.providerChargeId,
    chargeId: p.chargeId,
    amountCents: p.amountCents,
    currency: p.currency,
    reason: p.reason,
    state: p.state,
    approvedBy: p.approvedBy,
    decidedBy: p.decidedBy,
    decidedAt: p.decidedAt,
    decisionNote: p.decisionNote,
    refundId: p.refundId,
    createdAt: p.createdAt,
  };
}
