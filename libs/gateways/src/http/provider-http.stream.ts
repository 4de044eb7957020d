import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ABORTED, READ_TIMEOUT, startExchange, type ProviderHttpRequest, type ProviderHttpTimeouts, type ProviderTlsOptions, type TransportFailure } from './provider-http.exchange.js';

/**
 * A call whose response body is handed over as a stream (a statement file can be hundreds of megabytes).
 * The read timeout covers the wait for the response head and then every silence between two chunks,
 * not the whole download. The caller must consume or destroy `body`.
 */
export type ProviderHttpStreamResult =
  | TransportFailure
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: IncomingMessage; durationMs: number };

export function streamedExchange(
  request: ProviderHttpRequest,
  timeouts: ProviderHttpTimeouts,
  tls: ProviderTlsOptions,
  resolve: (result: ProviderHttpStreamResult) => void,
): void {
  // A fresh connection: a download gains nothing from a pooled socket, and its idle timer must not outlive it.
  startExchange(request, timeouts, tls, false, {
    failed: resolve,
    response: (response, { elapsed, end }) => {
      end();
      // From here the read timeout is each silence between two chunks, not the whole download.
      const idle = () => response.destroy(Object.assign(new Error(`body stalled for ${timeouts.readTimeoutMs} ms`), { code: READ_TIMEOUT }));
      response.socket.setTimeout(timeouts.readTimeoutMs, idle);
      const onBodyAbort = () => response.destroy(Object.assign(new Error('request aborted by the caller'), { code: ABORTED }));
      request.signal?.addEventListener('abort', onBodyAbort, { once: true });
      response.once('close', () => request.signal?.removeEventListener('abort', onBodyAbort));
      resolve({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body: response, durationMs: elapsed() });
    },
  });
}
