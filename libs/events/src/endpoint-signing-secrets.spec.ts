import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EndpointSecretCipher } from './endpoint-secret.cipher.js';
import { EndpointSigningSecrets } from './endpoint-signing-secrets.js';

const cipher = new EndpointSecretCipher(randomBytes(32).toString('base64'));
const secrets = new EndpointSigningSecrets(cipher);
const NOW = new Date('2026-12-06T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe('EndpointSigningSecrets.signingSecretsOf', () => {
  const current = 'whsec_current';
  const previous = 'whsec_previous';
  // [what, previous ciphertext, previous expires at, secrets signed with]
  const cases: Array<[string, string | null, Date | null, string[]]> = [
    ['never rotated: the current secret alone', null, null, [current]],
    ['rotated, previous still valid: both, newest first', cipher.encrypt(previous), at(60_000), [current, previous]],
    ['rotated, previous expiring this very instant: the current alone', cipher.encrypt(previous), at(0), [current]],
    ['rotated, previous expired: the current alone', cipher.encrypt(previous), at(-1), [current]],
    ['a previous without an expiry is never trusted', cipher.encrypt(previous), null, [current]],
  ];
  it.each(cases)('%s', (_what, previousCiphertext, expiresAt, expected) => {
    const row = { secret_ciphertext: cipher.encrypt(current), previous_secret_ciphertext: previousCiphertext, previous_secret_expires_at: expiresAt };
    expect(secrets.signingSecretsOf(row, NOW)).toEqual(expected);
  });

  it('throws rather than sign with a secret it cannot open', () => {
    const foreign = new EndpointSecretCipher(randomBytes(32).toString('base64')).encrypt(current);
    expect(() => secrets.signingSecretsOf({ secret_ciphertext: foreign, previous_secret_ciphertext: null, previous_secret_expires_at: null }, NOW)).toThrow();
  });
});
