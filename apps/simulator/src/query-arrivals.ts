import type { RequestListener } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * When each provider query reached the simulator: stamped as the API server hands the request over, before any
 * routing, so a bench in another process measures our rate as the provider would count it, not as its own event
 * loop happens to see it. Every GET under `/v1/` is a query (list, search or retrieve) and spends the same budget.
 * Kept only when asked for (`recordQueryArrivals`): a long-running simulator would otherwise grow without end.
 */
export class QueryArrivals {
  private at: number[] = [];

  /** The API router, stamping each query first. */
  stamping(router: RequestListener): RequestListener {
    return (request, response) => {
      if (request.method === 'GET' && request.url?.startsWith('/v1/')) this.at.push(performance.now());
      router(request, response);
    };
  }

  /** Milliseconds on this process's monotonic clock, in arrival order. */
  list(): number[] {
    return [...this.at];
  }

  reset(): void {
    this.at = [];
  }
}
