import type { IncomingHttpHeaders } from 'node:http';
import {
  codeOf,
  messageOf,
  startExchange,
  type ProviderHttpRequest,
  type ProviderHttpTimeouts,
  type ProviderTlsOptions,
  type TransportFailure,
} from './provider-http.exchange.js';
import { streamedExchange, type ProviderHttpStreamResult } from './provider-http.stream.js';

export { ABORTED, CONNECT_TIMEOUT, READ_TIMEOUT, type ProviderHttpRequest, type ProviderHttpTimeouts, type ProviderTlsOptions } from './provider-http.exchange.js';

/**
 * What a single HTTP call proved. The split between `connect_failed` and `no_response` is the whole point:
 * the first means the request never left this machine, the second that the provider may have acted on it.
 */
export type ProviderHttpResult =
  | TransportFailure
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: string; durationMs: number };

/**
 * Makes exactly one HTTP request per call: no retries, and a fresh connection each time (`agent: false`,
 * so no pooled socket from an earlier call can turn a stale-connection reset into a false `no_response`).
 * Never rejects: every failure is a `ProviderHttpResult`.
 */
export class ProviderHttpClient {
  constructor(
    private readonly timeouts: ProviderHttpTimeouts,
    private readonly tls: ProviderTlsOptions = {},
  ) {}

  send(request: ProviderHttpRequest): Promise<ProviderHttpResult> {
    return new Promise((resolve) => {
      try {
        bufferedExchange(request, this.timeouts, this.tls, resolve);
      } catch (error) {
        // Only an invalid URL or header gets here, before any socket exists: nothing was sent.
        resolve({ kind: 'connect_failed', errorCode: codeOf(error), message: messageOf(error), durationMs: 0 });
      }
    });
  }

  /** Like `send`, but hands the response body over as a stream instead of buffering it (statement files). */
  stream(request: ProviderHttpRequest): Promise<ProviderHttpStreamResult> {
    return new Promise((resolve) => {
      try {
        streamedExchange(request, this.timeouts, this.tls, resolve);
      } catch (error) {
        resolve({ kind: 'connect_failed', errorCode: codeOf(error), message: messageOf(error), durationMs: 0 });
      }
    });
  }
}

/** The whole body is read before the call settles; the read timeout covers it all. */
function bufferedExchange(request: ProviderHttpRequest, timeouts: ProviderHttpTimeouts, tls: ProviderTlsOptions, resolve: (result: ProviderHttpResult) => void): void {
  startExchange(request, timeouts, tls, {
    failed: resolve,
    response: (response, { elapsed, fail, end }) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => fail(codeOf(error), messageOf(error)));
      response.on('end', () => {
        if (!end()) return;
        // Ends the socket: nothing outlives the call.
        response.destroy();
        resolve({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), durationMs: elapsed() });
      });
    },
  });
}
