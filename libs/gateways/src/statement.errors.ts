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
 * The provider has not made the day's data available yet (Stripe: the report type's `data_available_end` is before
 * the interval's end). Nothing was read and nothing is wrong: the run waits for a later tick instead of failing.
 */
export class StatementNotYetAvailableError extends DomainError {
  readonly code = 'statement_not_yet_available';
  readonly kind = 'unavailable';
  constructor(availableUntil: Date, needed: Date) {
    const [until, by] = [availableUntil.toISOString(), needed.toISOString()];
    super(`the provider's data is available until ${until}, the day needs it until ${by}`, { availableUntil: until, needed: by });
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
