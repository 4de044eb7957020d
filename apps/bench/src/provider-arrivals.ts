import dc from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { busiestWindow } from '@app/queues';

/**
 * When each provider query reached the simulator, as its HTTP server saw the request start (the simulator runs in
 * the bench's own process): the provider's view of our rate, which is the one its limit is about. Every GET under
 * `/v1/` is a query (list, search or retrieve) and spends the same budget.
 */
export class ProviderArrivals {
  private readonly at: number[] = [];
  private readonly onRequest = (message: unknown): void => {
    const { request } = message as { request: IncomingMessage };
    if (request.method === 'GET' && request.url?.startsWith('/v1/')) this.at.push(performance.now());
  };

  constructor() {
    dc.subscribe('http.server.request.start', this.onRequest);
  }

  stop(): void {
    dc.unsubscribe('http.server.request.start', this.onRequest);
  }

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
