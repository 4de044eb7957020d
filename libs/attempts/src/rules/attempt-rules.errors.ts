import { DomainError } from '@app/common';

/**
 * The bytes about to be sent differ from the ones first sent under this idempotency key. A
 * programming error (a deploy changed the encoding, a field was edited): the send must stop, since
 * the provider would reject the key or, worse, a provider without key checks would charge again.
 */
export class PayloadMismatchError extends DomainError {
  readonly code = 'payload_mismatch';
  readonly kind = 'internal';

  constructor(
    readonly storedHash: string,
    readonly actualHash: string,
  ) {
    super(`payload hash ${actualHash} differs from the hash ${storedHash} stored with the idempotency key`, {
      storedHash,
      actualHash,
    });
  }
}
