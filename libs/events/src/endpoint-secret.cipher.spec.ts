import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EndpointSecretCipher } from './endpoint-secret.cipher.js';
import { EventsKeyMissingError } from './events.errors.js';
import { newWebhookSecret } from './webhook-secret.js';

const KEY = randomBytes(32).toString('base64');

/** Flips one bit of the base64 part at `index` (1 iv, 2 tag, 3 sealed) of a `v1:iv:tag:sealed` ciphertext. */
function tamper(ciphertext: string, index: 1 | 2 | 3): string {
  const parts = ciphertext.split(':');
  const bytes = Buffer.from(parts[index], 'base64');
  bytes[0] ^= 0x01;
  parts[index] = bytes.toString('base64');
  return parts.join(':');
}

describe('EndpointSecretCipher', () => {
  it('gives back the secret it sealed, and never stores it in the clear', () => {
    const cipher = new EndpointSecretCipher(KEY);
    const secret = newWebhookSecret();
    const sealed = cipher.encrypt(secret);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
    expect(cipher.decrypt(sealed)).toBe(secret);
  });

  it('seals one secret differently each time (a fresh IV)', () => {
    const cipher = new EndpointSecretCipher(KEY);
    const secret = newWebhookSecret();
    expect(cipher.encrypt(secret)).not.toBe(cipher.encrypt(secret));
  });

  it.each([1, 2, 3] as const)('refuses a ciphertext with part %i tampered with', (part) => {
    const cipher = new EndpointSecretCipher(KEY);
    const sealed = tamper(cipher.encrypt(newWebhookSecret()), part);
    expect(() => cipher.decrypt(sealed)).toThrow();
  });

  it('refuses a ciphertext whose tag was cut short', () => {
    const cipher = new EndpointSecretCipher(KEY);
    const parts = cipher.encrypt(newWebhookSecret()).split(':');
    parts[2] = Buffer.from(parts[2], 'base64').subarray(0, 4).toString('base64');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
  });

  it('refuses a ciphertext sealed under another key', () => {
    const sealed = new EndpointSecretCipher(randomBytes(32).toString('base64')).encrypt(newWebhookSecret());
    expect(() => new EndpointSecretCipher(KEY).decrypt(sealed)).toThrow();
  });

  it.each(['', 'plain-secret', 'v2:a:b:c', 'v1:a:b', 'v1:::'])('refuses the unreadable ciphertext %j', (junk) => {
    expect(() => new EndpointSecretCipher(KEY).decrypt(junk)).toThrow();
  });

  it('without a key refuses to seal or open anything with EventsKeyMissingError', () => {
    for (const missing of [undefined, '']) {
      const cipher = new EndpointSecretCipher(missing);
      expect(() => cipher.encrypt(newWebhookSecret())).toThrow(EventsKeyMissingError);
      expect(() => cipher.decrypt(new EndpointSecretCipher(KEY).encrypt('whsec_x'))).toThrow(EventsKeyMissingError);
    }
  });

  it('refuses a key that is not 32 bytes at construction', () => {
    expect(() => new EndpointSecretCipher(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
