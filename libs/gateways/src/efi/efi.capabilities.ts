import type { GatewayCapabilities } from '../gateway.capabilities.js';

const HOUR_MS = 3_600_000;

/** Efí's Pix cash-out guarantees (provider-contracts.md §4b); [U] marks what no primary source states. */
export const EFI_PIX_CAPABILITIES: GatewayCapabilities = {
  // "resending with the same idEnvio guarantees no value is debited more than once" [S, Efí docs quoted].
  nativeIdempotency: true,
  // No retention is documented [U]: assume a day, like Stripe, so resends stop well before it could matter;
  // after that only a lookup resolves.
  keyLifetimeMs: 24 * HOUR_MS,
  // A direct read by idEnvio, not a search: no lag is documented [U]; a transfer still executing when our read
  // timed out is covered by the resolver's grace, as for every consistent lookup.
  lookupByReference: 'consistent_list',
  consistencyWindowMs: 0,
  // Efí publishes per-scope buckets, not a number for lookups [U]: stay modest.
  queryRatePerSecond: 10,
  // The sent-Pix list (GET /v2/gn/pix/enviados, paged): no report file exists for it.
  statementSources: ['api'],
};
