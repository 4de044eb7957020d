import { createHmac, timingSafeEqual } from 'node:crypto';

export type StripeSignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'no_v1_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'signature_mismatch';

export type StripeSignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: StripeSignatureFailure };

/** Hex HMAC-SHA256 of `${t}.${rawBody}` keyed by the endpoint secret, as Stripe signs webhooks. */
function computeSignature(rawBody: Buffer | string, secret: string, timestampSec: number): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

/** Builds a `Stripe-Signature` header value (`t=<unix>,v1=<hex>`) for a payload. */
export function signStripePayload(rawBody: Buffer | string, secret: string, timestampSec: number): string {
  return `t=${timestampSec},v1=${computeSignature(rawBody, secret, timestampSec)}`;
}

/**
 * Verifies a `Stripe-Signature` header over the exact raw body. Passes when any `v1` entry matches
 * (Stripe sends several while a secret is being rolled). Unlike stripe-node, a timestamp more than the
 * tolerance in the future is rejected too: a signer's clock that far ahead is not one we should trust.
 */
export function verifyStripeSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  toleranceSec: number,
  nowSec: number,
): StripeSignatureCheck {
  if (!header) return { ok: false, reason: 'missing_header' };

  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (name === 'v1') candidates.push(value);
  }
  if (timestamp === null) return { ok: false, reason: 'malformed_header' };
  if (candidates.length === 0) return { ok: false, reason: 'no_v1_signature' };

  const expected = Buffer.from(computeSignature(rawBody, secret, timestamp), 'utf8');
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, reason: 'signature_mismatch' };
  // Checked after the signature so a forged header learns nothing about our clock.
  if (nowSec - timestamp > toleranceSec) return { ok: false, reason: 'stale_timestamp' };
  if (timestamp - nowSec > toleranceSec) return { ok: false, reason: 'future_timestamp' };
  return { ok: true, timestamp };
}
