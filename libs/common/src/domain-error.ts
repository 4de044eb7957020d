/**
 * Every refusal a module can make falls in one of these; each error class says which, beside its code, so
 * a module owns both and the HTTP filter needs no list of codes.
 */
export type DomainErrorKind = 'invalid_input' | 'forbidden' | 'not_found' | 'conflict' | 'unprocessable' | 'overloaded' | 'unavailable' | 'internal';

/**
 * A rule of the domain was broken. Business code throws these with a stable `code`; only the HTTP edge
 * maps codes to statuses, so services never know about HTTP.
 */
export abstract class DomainError extends Error {
  /** Stable and unique across the codebase: clients branch on it. */
  abstract readonly code: string;
  /** What kind of refusal this is; the HTTP edge alone turns a kind into a status. */
  abstract readonly kind: DomainErrorKind;
  /** Extra facts a client can act on (e.g. the id of an existing resource). Never secrets. */
  readonly details?: Record<string, unknown>;

  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}
