import { DomainError } from '@app/common';

export class IllegalTransitionError extends DomainError {
  readonly code = 'illegal_transition';
  readonly kind = 'conflict';
  constructor(attemptId: string, from: string, to: string) {
    super(`attempt ${attemptId} may not move from ${from} to ${to}`, { attemptId, from, to });
  }
}

export class AttemptNotFoundError extends DomainError {
  readonly code = 'attempt_not_found';
  readonly kind = 'not_found';
  constructor(attemptId: string) {
    super(`attempt ${attemptId} does not exist`, { attemptId });
  }
}

/** The partial unique index refused a second open attempt for one charge. */
export class OpenAttemptExistsError extends DomainError {
  readonly code = 'open_attempt_exists';
  readonly kind = 'conflict';
  constructor(chargeId: string) {
    super(`charge ${chargeId} already has an open attempt`, { chargeId });
  }
}

/**
 * The charge's last attempt was failed as not found, and the query that must confirm it before a new
 * attempt opens could not be answered: sending now could charge twice, so nothing was sent.
 */
export class PreviousAttemptUnverifiedError extends DomainError {
  readonly code = 'previous_attempt_unverified';
  readonly kind = 'unavailable';
  constructor(chargeId: string, attemptId: string) {
    super(`charge ${chargeId}: the provider could not confirm that attempt ${attemptId} created nothing; nothing was sent, submit again later`, { chargeId, attemptId });
  }
}

/**
 * The provider holds a captured charge for one of this charge's attempts (a late success of one we had failed):
 * the customer paid, so no other attempt opens, whatever a person acknowledged since. Names the attempt.
 */
export class ChargeAlreadyCapturedError extends DomainError {
  readonly code = 'charge_already_captured';
  readonly kind = 'conflict';
  constructor(chargeId: string, attemptId: string) {
    super(`charge ${chargeId} is already captured at the provider by attempt ${attemptId}; no new attempt opens`, { chargeId, attemptId });
  }
}
