import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Asaas signs nothing: a webhook carries the static token configured for it in `asaas-access-token`.
 * Compared in constant time over fixed-length digests, so neither the token's content nor its length
 * leaks through timing. No token configured means no delivery is accepted.
 */
export function verifyAsaasWebhookToken(header: string | undefined, expected: string | undefined): boolean {
  if (!expected || header === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(header), digest(expected));
}
