import { DomainError } from '@app/common';

export class StatementUnsupportedError extends DomainError {
  readonly code = 'statement_unsupported';
  readonly kind = 'invalid_input';
  constructor(provider: string, source: string) {
    super(`provider ${provider} offers no ${source} statement`, { provider, source });
  }
}

/** The provider could not give the statement (errors, timeouts, a failed report): nothing is concluded from it. */
export class StatementUnavailableError extends DomainError {
  readonly code = 'statement_unavailable';
  readonly kind = 'unavailable';
  constructor(message: string, httpStatus: number | null = null) {
    super(message, httpStatus === null ? undefined : { httpStatus });
  }
}

/**
 * The statement changed while it was paged (Asaas: the pages do not add up to one `totalCount`): what was read
 * may skip or repeat lines, so the whole day is read again, and a change that persists fails the run.
 */
export class StatementMovedError extends DomainError {
  readonly code = 'statement_moved';
  readonly kind = 'unavailable';
}
