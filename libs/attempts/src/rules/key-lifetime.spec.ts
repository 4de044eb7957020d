import type { GatewayCapabilities } from '@app/gateways';
import { describe, expect, it } from 'vitest';
import { keyMayBeForgotten, mayResend, sendProvedUnreceived } from './key-lifetime.js';

const HOUR = 3_600_000;
const createdAt = new Date('2026-03-01T12:00:00Z');
const withKey: Pick<GatewayCapabilities, 'nativeIdempotency' | 'keyLifetimeMs'> = { nativeIdempotency: true, keyLifetimeMs: 24 * HOUR };
const withoutKey = { nativeIdempotency: false, keyLifetimeMs: 0 };
const at = (msAfterCreation: number): Date => new Date(createdAt.getTime() + msAfterCreation);

describe('mayResend', () => {
  // Stripe-like: 24 h key lifetime, 1 h margin, so the last safe resend is just before 23 h.
  // Asaas-like: no key, so only a send proven never processed may be repeated, at any age.
  const table: [string, typeof withKey, number, boolean, boolean][] = [
    ['right after creation', withKey, 0, true, true],
    ['a minute later', withKey, 60_000, true, true],
    ['one millisecond before lifetime minus margin', withKey, 23 * HOUR - 1, true, true],
    ['exactly at lifetime minus margin', withKey, 23 * HOUR, true, false],
    ['inside the margin', withKey, 23.5 * HOUR, true, false],
    ['after the key lifetime', withKey, 25 * HOUR, true, false],
    ['with a clock that reads before creation', withKey, -5_000, true, true],
    ['with a key, after a send that may have arrived (a replay is safe)', withKey, 0, false, true],
    ['without a key, after a refused connection or a 429', withoutKey, 0, true, true],
    ['without a key, a day after a refused connection', withoutKey, 25 * HOUR, true, true],
    ['without a key, after a send that may have arrived, even at once', withoutKey, 0, false, false],
  ];

  it.each(table)('%s: %s', (_name, capabilities, msAfterCreation, previousSendsUnreceived, expected) => {
    expect(mayResend({ attemptCreatedAt: createdAt, now: at(msAfterCreation), capabilities, marginMs: HOUR, previousSendsUnreceived })).toBe(expected);
  });

  it('never resends when the margin swallows the whole lifetime', () => {
    expect(mayResend({ attemptCreatedAt: createdAt, now: createdAt, capabilities: withKey, marginMs: 24 * HOUR, previousSendsUnreceived: true })).toBe(false);
  });
});

describe('sendProvedUnreceived', () => {
  it.each<[{ reason?: unknown } | null, boolean]>([
    [{ reason: 'connect_failed' }, true],
    [{ reason: 'rate_limited' }, true],
    [{ reason: 'no_response' }, false],
    [{ reason: 'server_error' }, false],
    [{ reason: 'idempotency_conflict' }, false],
    [{}, false],
    [null, false],
  ])('last error %o → %s', (lastError, expected) => {
    expect(sendProvedUnreceived(lastError)).toBe(expected);
  });
});

describe('keyMayBeForgotten', () => {
  const now = new Date('2026-12-07T12:00:00Z');
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  it('a charge younger than the lifetime less the margin: every key of its attempts still replays', () => {
    expect(keyMayBeForgotten({ chargeCreatedAt: at(22.9), now, keyLifetimeMs: 24 * HOUR, marginMs: HOUR })).toBe(false);
  });
  it('from the lifetime less the margin on, an attempt lost since its charge was made may have a pruned key', () => {
    expect(keyMayBeForgotten({ chargeCreatedAt: at(23), now, keyLifetimeMs: 24 * HOUR, marginMs: HOUR })).toBe(true);
    expect(keyMayBeForgotten({ chargeCreatedAt: at(25), now, keyLifetimeMs: 24 * HOUR, marginMs: HOUR })).toBe(true);
  });
});
