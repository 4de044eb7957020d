import { createHash, randomBytes } from 'node:crypto';

/** Tokens are stored only as SHA-256: a database leak does not leak credentials. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(): string {
  return `co_${randomBytes(24).toString('base64url')}`;
}
