import type { GatewayCapabilities } from '@app/gateways';

export interface ResendCheck {
  attemptCreatedAt: Date;
  now: Date;
  capabilities: Pick<GatewayCapabilities, 'nativeIdempotency' | 'keyLifetimeMs'>;
  /** Safety margin before the provider may forget the key (clock skew, time the request spends in flight). */
  marginMs: number;
  /** Every earlier send is proven never to have been processed (see `sendProvedUnreceived`). */
  previousSendsUnreceived: boolean;
}

/**
 * Outcomes that prove the provider processed nothing: the connection never opened, a 429, or a first send held
 * back because the check of its reference went unanswered (first-send.check.ts: no create left at all).
 */
const UNRECEIVED_REASONS: ReadonlySet<unknown> = new Set(['connect_failed', 'rate_limited', 'first_send_check_unanswered']);

/**
 * Whether the last recorded send of a still-pending attempt is proven never to have been processed. A
 * pending attempt with no lease only ever got there through such an outcome (anything that may have
 * arrived makes it unknown); the reason is checked anyway, because a wrong answer here is a second charge.
 */
export function sendProvedUnreceived(lastError: { reason?: unknown } | null): boolean {
  return lastError !== null && UNRECEIVED_REASONS.has(lastError.reason);
}

/**
 * Whether a charge attempt's derived key (survivable-ids.ts) may have been sent before and pruned since: an attempt
 * row lost to a failover was opened no earlier than its charge, so only a charge older than the key's lifetime
 * (less the margin) can have a lost attempt whose key the provider no longer replays.
 */
export function keyMayBeForgotten({ chargeCreatedAt, now, keyLifetimeMs, marginMs }: { chargeCreatedAt: Date; now: Date; keyLifetimeMs: number; marginMs: number }): boolean {
  return now.getTime() - chargeCreatedAt.getTime() >= keyLifetimeMs - marginMs;
}

/**
 * Whether an attempt may be resent with its key (DESIGN.md section 4 rule 5). Providers may prune a
 * key once its lifetime has passed, and a resend with a pruned key runs as a brand new charge: from
 * then on, only a query may resolve the attempt. The clock starts at the attempt's creation, when the
 * key was minted, which is no later than the first send: the conservative end.
 */
export function mayResend({ attemptCreatedAt, now, capabilities, marginMs, previousSendsUnreceived }: ResendCheck): boolean {
  // Without native idempotency a resend is never a replay, only a new charge: it is allowed only when
  // nothing sent before can have been processed (a refused connection, a 429), whatever the time.
  if (!capabilities.nativeIdempotency) return previousSendsUnreceived;
  const keyAgeMs = now.getTime() - attemptCreatedAt.getTime();
  return keyAgeMs < capabilities.keyLifetimeMs - marginMs;
}
