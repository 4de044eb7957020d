import { performance } from 'node:perf_hooks';
import { slotStillUsable } from './rules/query-pacing.js';

/**
 * One slot of a provider's query budget, held by the query it was taken for. The slot's promise (the query reaches
 * the provider within `ARRIVAL_SPREAD_MS` of it) is kept where it can be: the query's request is written within
 * `SLOT_USE_MS` of the slot, or not at all. `mayLeave` is asked when the request is about to be written; only its
 * first request is the paced one, so later ones (a second page) are not held to the slot.
 */
export class QuerySlot {
  private asked = false;
  private refused = false;

  /** `localTime`: the earliest this process's clock can put the slot at, so its lateness is never under-counted. */
  constructor(private readonly localTime: number) {}

  mayLeave(): boolean {
    if (this.asked) return true;
    this.asked = true;
    this.refused = !slotStillUsable(performance.now() - this.localTime);
    return !this.refused;
  }

  /** The query's request was held past its slot and not sent: nothing reached the provider, ask for another slot. */
  get missed(): boolean {
    return this.refused;
  }
}
