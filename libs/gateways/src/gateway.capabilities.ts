/**
 * What a provider guarantees. Every rule reads these instead of asking `provider === 'x'`.
 */
export interface GatewayCapabilities {
  /** The provider deduplicates requests carrying the same idempotency key. */
  nativeIdempotency: boolean;
  /** How long the provider remembers a key; past it (minus a margin) a resend could create a second charge. */
  keyLifetimeMs: number;
  /** Lookup by our reference, and whether its answer can lag behind creates. */
  lookupByReference: 'consistent_list' | 'lagging_search' | 'none';
  /**
   * How long a `lagging_search` may miss a charge that exists, so its "not found" counts only after it. A consistent
   * lookup cannot miss one: its window is 0, and a create still executing is the resolver's grace alone
   * (CONSISTENT_LOOKUP_GRACE_MS), one name for one idea.
   */
  consistencyWindowMs: number;
  /** Queries per second allowed across all workers. */
  queryRatePerSecond: number;
  /** Where a day's statement can be read for reconciliation; empty when the adapter cannot read one yet. */
  statementSources: ReadonlyArray<'api' | 'report'>;
  /**
   * The statement is asked for by calendar date, not by instant (Asaas' `paymentDate`): a margin past the day's
   * end would read the whole next day, still being written, so the day is read to its end and no further.
   */
  statementByDate?: true;
}
