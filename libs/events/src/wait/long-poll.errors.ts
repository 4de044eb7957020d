import { DomainError } from '@app/common';

/** 429: this api process already holds LONG_POLL_MAX_WAITERS waiting requests; Retry-After says when to come back. */
export class LongPollCapacityError extends DomainError {
  readonly code = 'long_poll_capacity';
  readonly kind = 'overloaded';
  constructor(max: number) {
    super(`waitForFinal: this server already holds ${max} waiting requests; retry, or read without waitForFinal`, { field: 'waitForFinal', retryAfterSeconds: 1 });
  }
}
