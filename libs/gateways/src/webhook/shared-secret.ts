import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A webhook authenticated by a static shared secret rather than a signature (Asaas' `asaas-access-token`, Efí's
 * `hmac` query parameter): whether the one given matches the one configured. Compared in constant time over fixed-length digests, so neither the token's content nor its length
 * leaks through timing. No secret configured means no delivery is accepted.
 */
export function matchesSharedSecret(given: string | undefined, expected: string | undefined): boolean {
  if (!expected || given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
