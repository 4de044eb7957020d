import { DomainError } from '@app/common';

export class ReconciliationRunRunningError extends DomainError {
  readonly code = 'reconciliation_run_running';
  readonly kind = 'conflict';
  constructor(readonly runId: string, provider: string, day: string) {
    super(`a reconciliation of ${provider} for ${day} is already running: ${runId}`, { id: runId });
  }
}

export class ReconciliationRunNotFoundError extends DomainError {
  readonly code = 'reconciliation_run_not_found';
  readonly kind = 'not_found';
  constructor(id: string) {
    super(`no reconciliation run ${id}`);
  }
}

export class InvalidReconciliationDayError extends DomainError {
  readonly code = 'invalid_reconciliation_day';
  readonly kind = 'invalid_input';
  constructor(day: string, field = 'date') {
    super(`${field} must be a calendar day written YYYY-MM-DD; got "${day}"`, { field });
  }
}

/** A run reads a whole day: one that has not ended yet in RECONCILIATION_TZ (today, or later) has no full statement. */
export class RunDayNotClosedError extends DomainError {
  readonly code = 'run_day_not_closed';
  readonly kind = 'unprocessable';
  constructor(day: string, lastClosedDay: string, timeZone: string, field = 'date') {
    super(`${field} ${day} has not ended yet in ${timeZone}: the latest day a run may read is ${lastClosedDay}`, { field, lastClosedDay });
  }
}

export class DivergenceNotFoundError extends DomainError {
  readonly code = 'divergence_not_found';
  readonly kind = 'not_found';
  constructor(id: string) {
    super(`no divergence ${id}`);
  }
}

export class RefundProposalNotFoundError extends DomainError {
  readonly code = 'refund_proposal_not_found';
  readonly kind = 'not_found';
  constructor(id: string) {
    super(`no refund proposal ${id}`);
  }
}

export class RefundProposalDecidedError extends DomainError {
  readonly code = 'refund_proposal_decided';
  readonly kind = 'conflict';
  constructor(id: string, state: string) {
    super(`refund proposal ${id} is already ${state}`, { state });
  }
}

export class InvalidCursorError extends DomainError {
  readonly code = 'invalid_cursor';
  readonly kind = 'invalid_input';
  constructor() {
    super('cursor is not one this API returned', { field: 'cursor' });
  }
}

/** The proposal's provider charge is (or may yet be) one of our attempts' success: refunding it is a person's call. */
export class RefundProposalStaleError extends DomainError {
  readonly code = 'refund_proposal_stale';
  readonly kind = 'conflict';
  constructor(id: string, attemptId: string, attemptStatus: string) {
    super(`refund proposal ${id}: its provider charge belongs to attempt ${attemptId} (${attemptStatus}) now; nothing was refunded`, { attemptId, attemptStatus });
  }
}

/** The fresh provider check before refunding a charge a failed attempt of ours holds: the provider holds no captured money. */
export class RefundProposalNotCapturedError extends DomainError {
  readonly code = 'refund_proposal_not_captured';
  readonly kind = 'conflict';
  constructor(id: string, providerChargeId: string, why: string, evidence: Record<string, unknown>) {
    super(`refund proposal ${id}: ${why}; nothing was refunded`, { providerChargeId, evidence });
  }
}

/** The fresh provider check could not be made: nothing proves the money is there to give back, so nothing moves. */
export class RefundProposalUnverifiedError extends DomainError {
  readonly code = 'refund_proposal_unverified';
  readonly kind = 'unavailable';
  constructor(id: string, providerChargeId: string, message: string) {
    super(`refund proposal ${id}: the provider could not be asked about ${providerChargeId} (${message}); nothing was refunded`, { providerChargeId });
  }
}

/** Four eyes by person: the one who proposed giving the money back (a reviewer's refund_needed) never approves it. */
export class RefundProposalSelfApprovalError extends DomainError {
  readonly code = 'refund_proposal_self_approval';
  readonly kind = 'forbidden';
  constructor(id: string, person: string) {
    super(`refund proposal ${id} was proposed by ${person}: another person must approve it`, { proposedBy: person });
  }
}
