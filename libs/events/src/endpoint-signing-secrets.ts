import { Injectable } from '@nestjs/common';
import { EndpointSecretCipher } from './endpoint-secret.cipher.js';

/** The secret columns of a webhook_endpoints row, as pg returns them. */
export interface EndpointSecretColumns {
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The secrets a delivery is signed with: the current one, and for 24 h after a rotation the one before it, so a
 * receiver still verifying with the old secret keeps accepting while it switches (Standard Webhooks lets
 * `webhook-signature` carry several `v1,<sig>` entries). Newest first. The plaintexts live only in the caller's
 * hands: never log them, put them in a span, or in an error.
 */
@Injectable()
export class EndpointSigningSecrets {
  constructor(private readonly cipher: EndpointSecretCipher) {}

  signingSecretsOf(row: EndpointSecretColumns, now: Date = new Date()): string[] {
    const secrets = [this.cipher.decrypt(row.secret_ciphertext)];
    const { previous_secret_ciphertext: previous, previous_secret_expires_at: until } = row;
    if (previous !== null && until !== null && until > now) secrets.push(this.cipher.decrypt(previous));
    return secrets;
  }
}
