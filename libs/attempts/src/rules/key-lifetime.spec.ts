import type { GatewayCapabilities } from '@app/gateways';
import { describe, expect, it } from 'vitest';
import { mayResend } from './key-lifetime.js';

const HOUR = 3_600_000;
const createdAt = new Date('2026-03-01T12:00:00Z');
const withKey: Pick<GatewayCapabilities, 'nativeIdempotency' | 'keyLifetimeMs'> = { nativeIdempotency: true, keyLifetimeMs: 24 * HOUR };
const withoutKey = { ...withKey, nativeIdempotency: false };
const at = (msAfterCreation: number): Date => new Date(createdAt.getTime() + msAfterCreation);

describe('mayResend', () => {
  // Stripe-like: 24 h key lifetime, 1 h margin, so the last safe resend is just before 23 h.
  const table: [string, typeof withKey, number, boolean][] = [
    ['right after creation', withKey, 0, true],
    ['a minute later', withKey, 60_000, true],
    ['one millisecond before lifetime minus margin', withKey, 23 * HOUR - 1, true],
    ['exactly at lifetime minus margin', withKey, 23 * HOUR, false],
    ['inside the margin', withKey, 23.5 * HOUR, false],
    ['after the key lifetime', withKey, 25 * HOUR, false],
    ['with a clock that reads before creation', withKey, -5_000, true],
    ['for a provider without idempotency keys, even at once', withoutKey, 0, false],
  ];

  it.each(table)('%s: %s', (_name, capabilities, msAfterCreation, expected) => {
    expect(mayResend({ attemptCreatedAt: createdAt, now: at(msAfterCreation), capabilities, marginMs: HOUR })).toBe(expected);
  });

  it('never resends when the margin swallows the whole lifetime', () => {
    expect(mayResend({ attemptCreatedAt: createdAt, now: createdAt, capabilities: withKey, marginMs: 24 * HOUR })).toBe(false);
  });
});
