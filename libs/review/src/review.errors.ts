import { DomainError } from '@app/common';

export class ReviewItemNotFoundError extends DomainError {
  readonly code = 'review_item_not_found';
  readonly kind = 'not_found';
  constructor(id: string) {
    super(`review item ${id} does not exist`, { id });
  }
}

/** The request itself is incomplete for the action asked (a missing field): nothing was looked up or changed. */
export class ReviewInputInvalidError extends DomainError {
  readonly code = 'review_input_invalid';
  readonly kind = 'invalid_input';
  constructor(field: string, message: string) {
    super(`${field}: ${message}`, { field });
  }
}

export class ReviewClaimedByAnotherError extends DomainError {
  readonly code = 'review_claimed_by_another';
  readonly kind = 'conflict';
  constructor(id: string, claimedBy: string, claimExpiresAt: string) {
    super(`review item ${id} is claimed by ${claimedBy} until ${claimExpiresAt}`, { id, claimedBy, claimExpiresAt });
  }
}

export class ReviewClaimRequiredError extends DomainError {
  readonly code = 'review_claim_required';
  readonly kind = 'conflict';
  constructor(id: string, state: string, claimedBy: string | null) {
    const holder = claimedBy ? `it is claimed by ${claimedBy}` : 'nobody holds a claim on it';
    super(`claim review item ${id} before deciding it: you do not hold its claim (state ${state}; ${holder})`, { id, state, claimedBy });
  }
}

export class ReviewStateConflictError extends DomainError {
  readonly code = 'review_state_conflict';
  readonly kind = 'conflict';
  constructor(id: string, state: string, needed: string) {
    super(`review item ${id} is ${state}; this needs it ${needed}`, { id, state });
  }
}

export class ReviewActionNotAllowedError extends DomainError {
  readonly code = 'review_action_not_allowed';
  readonly kind = 'conflict';
  constructor(action: string, attemptStatus: string, why: string) {
    super(`${action} refused: ${why}`, { action, attemptStatus });
  }
}

/** A webhook, the resolver or another reviewer settled the attempt while this decision was being made. */
export class ReviewAttemptSettledError extends DomainError {
  readonly code = 'review_attempt_settled';
  readonly kind = 'conflict';
  constructor(attemptId: string, status: string, resolvedBy: string | null) {
    super(`attempt ${attemptId} is already ${status}${resolvedBy ? ` (by ${resolvedBy})` : ''}; nothing was changed, review the item again`, {
      attemptId,
      attemptStatus: status,
      resolvedBy,
    });
  }
}

/** What the provider answered does not support the decision; the lookup is kept as evidence. */
export class ReviewProviderEvidenceError extends DomainError {
  readonly code = 'review_provider_evidence_refused';
  readonly kind = 'conflict';
  constructor(action: string, why: string, evidence: Record<string, unknown>) {
    super(`${action} refused: ${why}`, { action, why, evidence });
  }
}

export class ReviewSecondReviewerRequiredError extends DomainError {
  readonly code = 'review_second_reviewer_required';
  readonly kind = 'forbidden';
  constructor(id: string, decidedBy: string) {
    super(`review item ${id} was decided by ${decidedBy}; a different reviewer must confirm or reject it`, { id, decidedBy });
  }
}

/** Recording the success would give the charge a second one: the provider took money twice. */
export class ReviewSecondProviderChargeError extends DomainError {
  readonly code = 'review_second_provider_charge';
  readonly kind = 'conflict';
  constructor(id: string, providerChargeId: string) {
    super(
      `the charge already has a succeeded attempt, so ${providerChargeId} is a second provider charge; the item is now duplicate_provider_charges and needs a refund`,
      { id, providerChargeId, reason: 'duplicate_provider_charges' },
    );
  }
}

/** The follow-up does not fit what the provider holds for this attempt (a late capture, or none). Nothing changed. */
export class ReviewFollowUpMismatchError extends DomainError {
  readonly code = 'review_follow_up_mismatch';
  readonly kind = 'unprocessable';
  constructor(followUp: string, why: string) {
    super(`followUp ${followUp}: ${why}`, { field: 'followUp', followUp });
  }
}

/** refund_needed names a provider charge the provider does not show as this charge's captured money. Nothing changed. */
export class ReviewRefundUnprovenError extends DomainError {
  readonly code = 'review_refund_unproven';
  readonly kind = 'unprocessable';
  constructor(providerChargeId: string, why: string, evidence: Record<string, unknown>) {
    super(`refund_needed for ${providerChargeId} refused: ${why}`, { field: 'providerChargeId', providerChargeId, why, evidence });
  }
}
