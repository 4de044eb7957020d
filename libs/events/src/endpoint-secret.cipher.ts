import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventsKeyMissingError } from './events.errors.js';

/**
 * Endpoint secrets at rest: AES-256-GCM under EVENTS_ENCRYPTION_KEY, a fresh IV each time, the tag checked on
 * every read (a tampered or foreign ciphertext throws rather than sign with garbage). `v1:` names the scheme so a
 * key rotation can add `v2:` beside it.
 */
export class EndpointSecretCipher {
  private readonly key: Buffer | null;

  constructor(keyBase64: string | undefined) {
    this.key = keyBase64 ? Buffer.from(keyBase64, 'base64') : null;
    if (this.key && this.key.length !== 32) throw new Error('EVENTS_ENCRYPTION_KEY must be 32 bytes');
  }

  encrypt(secret: string): string {
    const key = this.requireKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
  }

  decrypt(ciphertext: string): string {
    const key = this.requireKey();
    const [scheme, iv, tag, sealed] = ciphertext.split(':');
    if (scheme !== 'v1' || !iv || !tag || !sealed) throw new Error('unreadable endpoint secret');
    // A fixed tag length: GCM would otherwise accept a tag cut to 4 bytes, which is far easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 });
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  }

  private requireKey(): Buffer {
    if (!this.key) throw new EventsKeyMissingError();
    return this.key;
  }
}
