import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '@app/common';

/** Domain codes → HTTP. The only place that knows both. */
const STATUS_BY_CODE: Record<string, number> = {
  charge_not_found: HttpStatus.NOT_FOUND,
  refund_not_found: HttpStatus.NOT_FOUND,
  refund_proposal_executed: HttpStatus.CONFLICT,
  attempt_not_found: HttpStatus.NOT_FOUND,
  open_attempt_exists: HttpStatus.CONFLICT,
  previous_attempt_unverified: HttpStatus.SERVICE_UNAVAILABLE,
  illegal_transition: HttpStatus.CONFLICT,
  payout_not_found: HttpStatus.NOT_FOUND,
  review_item_not_found: HttpStatus.NOT_FOUND,
  charge_exists: HttpStatus.CONFLICT,
  token_name_taken: HttpStatus.CONFLICT,
  idempotency_key_in_flight: HttpStatus.CONFLICT,
  idempotency_key_reused: HttpStatus.UNPROCESSABLE_ENTITY,
  unknown_provider: HttpStatus.BAD_REQUEST,
  invalid_charge_field: HttpStatus.BAD_REQUEST,
  payload_mismatch: HttpStatus.INTERNAL_SERVER_ERROR,
  webhook_rejected: HttpStatus.BAD_REQUEST,
  review_input_invalid: HttpStatus.BAD_REQUEST,
  review_claimed_by_another: HttpStatus.CONFLICT,
  review_claim_required: HttpStatus.CONFLICT,
  review_state_conflict: HttpStatus.CONFLICT,
  review_action_not_allowed: HttpStatus.CONFLICT,
  review_attempt_settled: HttpStatus.CONFLICT,
  review_provider_evidence_refused: HttpStatus.CONFLICT,
  review_second_reviewer_required: HttpStatus.FORBIDDEN,
  review_second_provider_charge: HttpStatus.CONFLICT,
  reconciliation_run_running: HttpStatus.CONFLICT,
  reconciliation_run_not_found: HttpStatus.NOT_FOUND,
  invalid_reconciliation_day: HttpStatus.BAD_REQUEST,
  divergence_not_found: HttpStatus.NOT_FOUND,
  refund_proposal_not_found: HttpStatus.NOT_FOUND,
  refund_proposal_decided: HttpStatus.CONFLICT,
  invalid_cursor: HttpStatus.BAD_REQUEST,
  statement_unsupported: HttpStatus.BAD_REQUEST,
  account_not_found: HttpStatus.NOT_FOUND,
  account_forbidden: HttpStatus.FORBIDDEN,
  insufficient_balance: HttpStatus.UNPROCESSABLE_ENTITY,
  reservation_not_found: HttpStatus.CONFLICT,
  reservation_already_settled: HttpStatus.CONFLICT,
  ledger_reference_reused: HttpStatus.UNPROCESSABLE_ENTITY,
  owner_token_unknown: HttpStatus.UNPROCESSABLE_ENTITY,
  invalid_pix_key: HttpStatus.BAD_REQUEST,
  payout_currency_unsupported: HttpStatus.UNPROCESSABLE_ENTITY,
};

@Catch(DomainError)
export class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError, host: ArgumentsHost): void {
    const status = STATUS_BY_CODE[error.code] ?? HttpStatus.UNPROCESSABLE_ENTITY;
    const response = host.switchToHttp().getResponse<Response>();
    response.status(status).json({
      statusCode: status,
      error: HttpStatus[status].replace(/_/g, ' ').toLowerCase().replace(/^\w|\s\w/g, (c) => c.toUpperCase()),
      message: error.message,
      code: error.code,
      ...(error.details ? { details: error.details } : {}),
    });
  }
}
