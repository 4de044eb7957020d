import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks' signature header: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under each valid
 * secret (the key is the base64 after `whsec_`), space separated. A receiver accepts if any one verifies, which is
 * how a rotation overlaps.
 */
export function webhookSignature(id: string, timestamp: number, body: string, secrets: readonly string[]): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
