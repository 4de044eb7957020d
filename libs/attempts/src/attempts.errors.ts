import { DomainError } from '@app/common';

export class IllegalTransitionError extends DomainError {
  readonly code = 'illegal_transition';
  constructor(attemptId: string, from: string, to: string) {
    super(`attempt ${attemptId} may not move from ${from} to ${to}`, { attemptId, from, to });
  }
}

export class AttemptNotFoundError extends DomainError {
  readonly code = 'attempt_not_found';
  constructor(attemptId: string) {
    super(`attempt ${attemptId} does not exist`, { attemptId });
  }
}

/** Lives here, the lowest library that looks charges up; @app/charges re-exports it. */
export class ChargeNotFoundError extends DomainError {
  readonly code = 'charge_not_found';
  constructor(chargeId: string) {
    super(`charge ${chargeId} does not exist`, { chargeId });
  }
}

/** The partial unique index refused a second open attempt for one charge. */
export class OpenAttemptExistsError extends DomainError {
  readonly code = 'open_attempt_exists';
  constructor(chargeId: string) {
    super(`charge ${chargeId} already has an open attempt`, { chargeId });
  }
}
