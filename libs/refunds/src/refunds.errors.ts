import { DomainError } from '@app/common';

/** Only money that was captured can go back: the charge has no succeeded charge attempt. */
export class ChargeNotRefundableError extends DomainError {
  readonly code = 'charge_not_refundable';
  readonly kind = 'unprocessable';
  constructor(chargeId: string) {
    super(`charge ${chargeId} has not succeeded, so there is nothing to refund`, { chargeId });
  }
}

/** The refunds that succeeded or may still succeed already hold so much that this one would exceed the capture. */
export class RefundExceedsRefundableError extends DomainError {
  readonly code = 'refund_exceeds_refundable';
  readonly kind = 'unprocessable';
  constructor(chargeId: string, requestedCents: number, refundableCents: number) {
    super(`amountCents ${requestedCents} exceeds the refundable amount of charge ${chargeId}: ${refundableCents}`, { chargeId, requestedCents, refundableCents });
  }
}

export class RefundNotFoundError extends DomainError {
  readonly code = 'refund_not_found';
  readonly kind = 'not_found';
  constructor(refundId: string) {
    super(`refund ${refundId} does not exist`, { refundId });
  }
}

/** The refund's last attempt was failed as not found and the provider could not confirm it refunded nothing. */
export class PreviousRefundAttemptUnverifiedError extends DomainError {
  readonly code = 'previous_refund_attempt_unverified';
  readonly kind = 'unavailable';
  constructor(refundId: string, attemptId: string) {
    super(`refund ${refundId}: the provider could not confirm that attempt ${attemptId} refunded nothing; nothing was sent, try again later`, { refundId, attemptId });
  }
}

/** A refund proposal executes at most once: the unique index on `refunds.proposal_id` refused a second refund. */
export class RefundProposalExecutedError extends DomainError {
  readonly code = 'refund_proposal_executed';
  readonly kind = 'conflict';
  constructor(proposalId: string) {
    super(`refund proposal ${proposalId} was already executed`, { proposalId });
  }
}

/** Another proposal already refunded this provider charge (two runs proposed it under two kinds). */
export class ProviderChargeAlreadyRefundedError extends DomainError {
  readonly code = 'provider_charge_already_refunded';
  readonly kind = 'conflict';
  constructor(providerChargeId: string) {
    super(`provider charge ${providerChargeId} already has a refund from a proposal`, { providerChargeId });
  }
}
