/**
 * How a provider's query budget (`queryRatePerSecond`, across every worker) is spent: one query per slot, slots
 * handed out in order from one clock (Redis's), each used within `SLOT_USE_MS` of its time or given up.
 *
 * A query reaches the provider at most `ARRIVAL_SPREAD_MS` after its slot: the slot's own lateness (`SLOT_USE_MS`,
 * enforced when the request is about to be written: see `QuerySlot`) plus the request's way out, which is the one
 * part assumed (the network and the provider's own intake, outside anything a worker can hold back). `perSecond + 1` queries could then fit in one second at the provider only if
 * `perSecond` spacings fit in 1000 ms plus that spread; a spacing just above `(1000 + spread) / perSecond` rules it
 * out, and keeps the pace at about 97 % of the budget. Bull's limiter counted in fixed windows and, to stay under
 * the limit in a second straddling two of them, could use only about 90 % of it.
 */
export const SLOT_USE_MS = 20;
export const ARRIVAL_SPREAD_MS = 25;

/** Milliseconds between two slots of a provider allowing `perSecond` queries in any sliding second. */
export function querySpacingMs(perSecond: number): number {
  if (!(perSecond > 0)) throw new RangeError(`a query budget must be positive, got ${perSecond}`);
  // + 1 ms: strictly above the bound, whatever the rounding of the slots' times.
  return (1000 + ARRIVAL_SPREAD_MS + 1) / perSecond;
}

/**
 * A slot is still usable when the query can leave within `SLOT_USE_MS` of it: `lateMs` is how long after the slot's
 * time the caller got to use it, counted from before it asked for the slot (an upper bound). A process that stalled
 * (a pause, a starved core) gives its slot up and asks again, rather than sending queries bunched together.
 */
export function slotStillUsable(lateMs: number): boolean {
  return lateMs <= SLOT_USE_MS;
}

/**
 * Where Redis's clock stands against this process's: `redis - local` lies within [lo, hi]. One round trip bounds it
 * by its own length (Redis read its clock between our asking and our hearing back); the tightest of recent round
 * trips is kept, so a slow reply does not make a slot look late, and a slot is never used before its time.
 */
export interface ClockOffset {
  lo: number;
  hi: number;
  /** Local time of the first round trip kept: bounds are started again after `OFFSET_KEPT_MS`, so drift cannot build up. */
  since: number;
}

export const OFFSET_KEPT_MS = 2000;

export function narrowOffset(kept: ClockOffset | null, trip: { askedAt: number; heardAt: number; redisNow: number }): ClockOffset {
  const lo = trip.redisNow - trip.heardAt;
  const hi = trip.redisNow - trip.askedAt;
  // A first trip, an old bound, or one that no longer overlaps (a clock stepped): start from this trip alone.
  if (!kept || trip.askedAt - kept.since > OFFSET_KEPT_MS || lo > kept.hi || hi < kept.lo) return { lo, hi, since: trip.askedAt };
  return { lo: Math.max(kept.lo, lo), hi: Math.min(kept.hi, hi), since: kept.since };
}

/** The most of `times` (milliseconds, in order) within any sliding window of `windowMs`, both ends included: how a provider counts. */
export function busiestWindow(times: readonly number[], windowMs = 1000): number {
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last] - times[first] > windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
