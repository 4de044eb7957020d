/**
 * Failed authentications per client address (a missing, unknown or revoked token): past the budget each further
 * failure from the address is a 429 with Retry-After. The port the auth guard depends on; the api provides it over
 * the rate limiter's own Redis counters (apps/api/src/edge). A caller with a valid token never reaches it.
 */
export abstract class AuthFailureLimiter {
  /** Counts one failure; answers the milliseconds to wait when this one went over the budget, or null. */
  abstract recordFailure(address: string): Promise<number | null>;
}
