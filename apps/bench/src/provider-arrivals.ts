import { busiestWindow } from '@app/queues';

/**
 * When each provider query reached the simulator, as its HTTP server saw the request start in its own process:
 * the provider's view of our rate, which is the one its limit is about.
 */
export class ProviderArrivals {
  /** Milliseconds on the simulator's monotonic clock, in arrival order. */
  constructor(private readonly at: readonly number[]) {}

  get count(): number {
    return this.at.length;
  }

  /** Milliseconds from the first query's arrival to the last's. */
  spanMs(): number {
    return this.at.length < 2 ? 0 : this.at[this.at.length - 1] - this.at[0];
  }

  /** The most queries that arrived within any sliding window of `windowMs` (both ends included), exactly. */
  busiest(windowMs = 1000): number {
    return busiestWindow(this.at, windowMs);
  }
}
