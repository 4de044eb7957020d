import { DomainError } from './domain-error.js';

/** 400: `limit` is not a whole number from 1 to 200. */
export class InvalidListLimitError extends DomainError {
  readonly code = 'invalid_list_limit';
  readonly kind = 'invalid_input';
  constructor(max: number) {
    super(`limit: must be a whole number from 1 to ${max}`, { field: 'limit' });
  }
}

/** 400: `cursor` is not a nextCursor this list returned. */
export class InvalidListCursorError extends DomainError {
  readonly code = 'invalid_list_cursor';
  readonly kind = 'invalid_input';
  constructor() {
    super('cursor: must be the nextCursor of a previous page of this list', { field: 'cursor' });
  }
}

/** 400: `status` is not one of the statuses this list's objects have. */
export class InvalidListStatusError extends DomainError {
  readonly code = 'invalid_list_status';
  readonly kind = 'invalid_input';
  constructor(known: readonly string[]) {
    super(`status: must be one of ${known.join(', ')}`, { field: 'status', known });
  }
}

/** 400: `createdFrom` or `createdTo` is not a real calendar date or instant, or the range is reversed. */
export class InvalidListDateError extends DomainError {
  readonly code = 'invalid_list_date';
  readonly kind = 'invalid_input';
  constructor(field: string, why: string) {
    super(`${field}: ${why}`, { field });
  }
}

/** 400: a text filter (`orderId`, `customerId`, `chargeId`) is empty, too long, repeated or not clean text. */
export class InvalidListFilterError extends DomainError {
  readonly code = 'invalid_list_filter';
  readonly kind = 'invalid_input';
  constructor(field: string, why: string) {
    super(`${field}: ${why}`, { field });
  }
}
