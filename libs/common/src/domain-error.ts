/**
 * A rule of the domain was broken. Business code throws these with a stable `code`; only the HTTP edge
 * maps codes to statuses, so services never know about HTTP.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Extra facts a client can act on (e.g. the id of an existing resource). Never secrets. */
  readonly details?: Record<string, unknown>;

  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}
