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
