import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProviderHttpRequest, ProviderHttpTimeouts } from './provider-http.client.js';

/**
 * A call whose response body is handed over as a stream (a statement file can be hundreds of megabytes).
 * The read timeout covers the wait for the response head and then every silence between two chunks,
 * not the whole download. The caller must consume or destroy `body`.
 */
export type ProviderHttpStreamResult =
  | { kind: 'connect_failed'; errorCode: string; message: string; durationMs: number }
  | { kind: 'no_response'; errorCode: string; message: string; durationMs: number }
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: IncomingMessage; durationMs: number };

export function streamOnce(
  request: ProviderHttpRequest,
  timeouts: ProviderHttpTimeouts,
  resolve: (result: ProviderHttpStreamResult) => void,
): void {
  const startedAt = performance.now();
  const url = new URL(request.url);
  const isHttps = url.protocol === 'https:';
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
  let connected = false;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const elapsed = () => Math.round(performance.now() - startedAt);
  const outgoing = (isHttps ? https : http).request(url, { method: request.method, headers, agent: false });

  const fail = (errorCode: string, message: string) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    outgoing.destroy();
    resolve({ kind: connected ? 'no_response' : 'connect_failed', errorCode, message, durationMs: elapsed() });
  };
  const onAbort = () => fail('ABORTED', 'request aborted by the caller');
  const startReadTimer = () => {
    connected = true;
    clearTimeout(timer);
    timer = setTimeout(() => fail('READ_TIMEOUT', `no response within ${timeouts.readTimeoutMs} ms`), timeouts.readTimeoutMs);
  };
  timer = setTimeout(() => fail('CONNECT_TIMEOUT', `could not connect within ${timeouts.connectTimeoutMs} ms`), timeouts.connectTimeoutMs);
  outgoing.on('socket', (socket: Socket) => {
    if (!socket.connecting && (!isHttps || (socket as { encrypted?: boolean }).encrypted)) startReadTimer();
    else socket.once(isHttps ? 'secureConnect' : 'connect', startReadTimer);
  });
  outgoing.on('error', (error) => fail(codeOf(error), error.message));
  outgoing.on('close', () => fail('ECONNRESET', 'connection closed before a response'));
  outgoing.on('response', (response: IncomingMessage) => {
    if (settled) return void response.destroy();
    settled = true;
    clearTimeout(timer);
    const idle = () => response.destroy(Object.assign(new Error(`body stalled for ${timeouts.readTimeoutMs} ms`), { code: 'READ_TIMEOUT' }));
    response.socket.setTimeout(timeouts.readTimeoutMs, idle);
    const onBodyAbort = () => response.destroy(Object.assign(new Error('request aborted by the caller'), { code: 'ABORTED' }));
    request.signal?.removeEventListener('abort', onAbort);
    request.signal?.addEventListener('abort', onBodyAbort, { once: true });
    response.once('close', () => request.signal?.removeEventListener('abort', onBodyAbort));
    resolve({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body: response, durationMs: elapsed() });
  });
  if (request.signal?.aborted) return onAbort();
  request.signal?.addEventListener('abort', onAbort);
  outgoing.end(request.body);
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}
