import type { GatewayCapabilities } from '@app/gateways';

export interface ResendCheck {
  attemptCreatedAt: Date;
  now: Date;
  capabilities: Pick<GatewayCapabilities, 'nativeIdempotency' | 'keyLifetimeMs'>;
  /** Safety margin before the provider may forget the key (clock skew, time the request spends in flight). */
  marginMs: number;
}

/**
 * Whether an attempt may be resent with its key (DESIGN.md section 4 rule 5). Providers may prune a
 * key once its lifetime has passed, and a resend with a pruned key runs as a brand new charge: from
 * then on, only a query may resolve the attempt. The clock starts at the attempt's creation, when the
 * key was minted, which is no later than the first send: the conservative end.
 */
export function mayResend({ attemptCreatedAt, now, capabilities, marginMs }: ResendCheck): boolean {
  // Without native idempotency a resend is never a replay, only a new charge.
  if (!capabilities.nativeIdempotency) return false;
  const keyAgeMs = now.getTime() - attemptCreatedAt.getTime();
  return keyAgeMs < capabilities.keyLifetimeMs - marginMs;
}
