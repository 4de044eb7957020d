import { createHash } from 'node:crypto';
import { PayloadMismatchError } from './attempt-rules.errors.js';

/**
 * SHA-256 (hex) of the exact body sent on the wire, as UTF-8. Hashing the encoded bytes rather
 * than the request object means any change the provider would see (field order, number format,
 * encoding) changes the hash, and nothing it would not see does.
 */
export function payloadHash(encodedBody: string): string {
  return createHash('sha256').update(encodedBody, 'utf8').digest('hex');
}

/** Checked before every send: a key is only ever resent with the bytes it was first sent with. */
export function assertSamePayload(storedHash: string, encodedBody: string): void {
  const actualHash = payloadHash(encodedBody);
  if (actualHash !== storedHash) throw new PayloadMismatchError(storedHash, actualHash);
}
