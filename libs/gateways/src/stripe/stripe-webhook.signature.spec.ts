import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signStripePayload, verifyStripeSignature } from './stripe-webhook.signature.js';

const secret = 'whsec_test_secret';
const body = '{"id":"evt_1","object":"event","type":"payment_intent.succeeded"}';
const now = 1_760_000_000;
const tolerance = 300;

function hmac(payload: string, key: string): string {
  return createHmac('sha256', key).update(payload).digest('hex');
}

describe('signStripePayload', () => {
  it('signs `${t}.${rawBody}` with hex HMAC-SHA256 of the secret, in Stripe header form', () => {
    expect(signStripePayload(body, secret, now)).toBe(`t=${now},v1=${hmac(`${now}.${body}`, secret)}`);
  });

  it('signs a Buffer exactly like the same bytes as a string', () => {
    expect(signStripePayload(Buffer.from(body), secret, now)).toBe(signStripePayload(body, secret, now));
  });
});

describe('verifyStripeSignature', () => {
  const valid = signStripePayload(body, secret, now);

  it('accepts a header it signed, returning the timestamp', () => {
    expect(verifyStripeSignature(body, valid, secret, tolerance, now)).toEqual({ ok: true, timestamp: now });
  });

  it('accepts the raw body as a Buffer', () => {
    expect(verifyStripeSignature(Buffer.from(body), valid, secret, tolerance, now).ok).toBe(true);
  });

  it('accepts when any one of several v1 signatures matches (secret being rolled)', () => {
    const header = `t=${now},v1=${hmac(`${now}.${body}`, 'whsec_old')},v1=${hmac(`${now}.${body}`, secret)}`;
    expect(verifyStripeSignature(body, header, secret, tolerance, now).ok).toBe(true);
  });

  it('ignores unknown schemes such as v0 next to a valid v1', () => {
    const header = `t=${now},v0=deadbeef,v1=${hmac(`${now}.${body}`, secret)}`;
    expect(verifyStripeSignature(body, header, secret, tolerance, now).ok).toBe(true);
  });

  it.each([
    ['a missing header', undefined, body, 'missing_header'],
    ['an empty header', '', body, 'missing_header'],
    ['a header without a timestamp', `v1=${hmac(`${now}.${body}`, secret)}`, body, 'malformed_header'],
    ['a non-numeric timestamp', `t=soon,v1=${hmac(`${now}.${body}`, secret)}`, body, 'malformed_header'],
    ['a header without v1', `t=${now},v0=${hmac(`${now}.${body}`, secret)}`, body, 'no_v1_signature'],
    ['a forged signature (other secret)', signStripePayload(body, 'whsec_forger', now), body, 'signature_mismatch'],
    ['an altered body', valid, body.replace('succeeded', 'canceled'), 'signature_mismatch'],
    ['a body with one extra space', valid, `${body} `, 'signature_mismatch'],
    ['a truncated signature', valid.slice(0, -2), body, 'signature_mismatch'],
    ['a timestamp swapped after signing', valid.replace(`t=${now}`, `t=${now + 1}`), body, 'signature_mismatch'],
  ])('rejects %s', (_case, header, rawBody, reason) => {
    expect(verifyStripeSignature(rawBody, header, secret, tolerance, now)).toEqual({ ok: false, reason });
  });

  it('rejects a correctly signed but stale timestamp', () => {
    const old = signStripePayload(body, secret, now - tolerance - 1);
    expect(verifyStripeSignature(body, old, secret, tolerance, now)).toEqual({ ok: false, reason: 'stale_timestamp' });
  });

  it('accepts a timestamp exactly at the tolerance edge', () => {
    const edge = signStripePayload(body, secret, now - tolerance);
    expect(verifyStripeSignature(body, edge, secret, tolerance, now).ok).toBe(true);
  });

  it('rejects a correctly signed timestamp too far in the future', () => {
    const ahead = signStripePayload(body, secret, now + tolerance + 1);
    expect(verifyStripeSignature(body, ahead, secret, tolerance, now)).toEqual({
      ok: false,
      reason: 'future_timestamp',
    });
  });
});
