import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { streamOnce, type ProviderHttpStreamResult } from './provider-http.stream.js';

export interface ProviderHttpTimeouts {
  /** From the start of the call until the TCP (and TLS) connection is up. Short: nothing was sent yet. */
  connectTimeoutMs: number;
  /** From the connection being up until the whole response body has arrived. Generous: the request is out. */
  readTimeoutMs: number;
}

/** Client certificate and trust for providers that authenticate the caller by mutual TLS (Efí, Pix PSPs). */
export interface ProviderTlsOptions {
  /** PEM certificate chain (may be a file holding both certificate and key). */
  cert?: string | Buffer;
  /** PEM private key. */
  key?: string | Buffer;
  /** PKCS#12 bundle, instead of `cert` and `key`. */
  pfx?: Buffer;
  passphrase?: string;
  /** Extra CA certificates to trust instead of the system roots (a staging or test server). */
  ca?: string | Buffer;
}

export interface ProviderHttpRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Aborting ends the call at once; it settles like a failure of the phase it was in. */
  signal?: AbortSignal;
}

/**
 * What a single HTTP call proved. The split between `connect_failed` and `no_response` is the whole point:
 * the first means the request never left this machine, the second that the provider may have acted on it.
 */
export type ProviderHttpResult =
  | { kind: 'connect_failed'; errorCode: string; message: string; durationMs: number }
  | { kind: 'no_response'; errorCode: string; message: string; durationMs: number }
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: string; durationMs: number };

export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';
export const READ_TIMEOUT = 'READ_TIMEOUT';
export const ABORTED = 'ABORTED';

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
        sendOnce(request, this.timeouts, this.tls, resolve);
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
        streamOnce(request, this.timeouts, resolve);
      } catch (error) {
        resolve({ kind: 'connect_failed', errorCode: codeOf(error), message: messageOf(error), durationMs: 0 });
      }
    });
  }
}

function sendOnce(
  request: ProviderHttpRequest,
  timeouts: ProviderHttpTimeouts,
  tls: ProviderTlsOptions,
  resolve: (result: ProviderHttpResult) => void,
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

  const outgoing = isHttps
    ? https.request(url, { method: request.method, headers, agent: false, ...tls })
    : http.request(url, { method: request.method, headers, agent: false });

  const settle = (result: ProviderHttpResult) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    // Ends the socket in every case, so nothing outlives the call (the body is complete or abandoned).
    outgoing.destroy();
    resolve(result);
  };
  const fail = (errorCode: string, message: string) =>
    settle({ kind: connected && !isHandshakeRefusal(errorCode) ? 'no_response' : 'connect_failed', errorCode, message, durationMs: elapsed() });
  const onAbort = () => fail(ABORTED, 'request aborted by the caller');

  const startReadTimer = () => {
    connected = true;
    clearTimeout(timer);
    timer = setTimeout(
      () => fail(READ_TIMEOUT, `no complete response within ${timeouts.readTimeoutMs} ms`),
      timeouts.readTimeoutMs,
    );
  };

  timer = setTimeout(
    () => fail(CONNECT_TIMEOUT, `could not connect within ${timeouts.connectTimeoutMs} ms`),
    timeouts.connectTimeoutMs,
  );
  outgoing.on('socket', (socket: Socket) => {
    // TLS counts as part of connecting: a failed handshake means the request was never sent.
    if (!socket.connecting && (!isHttps || (socket as { encrypted?: boolean }).encrypted)) startReadTimer();
    else socket.once(isHttps ? 'secureConnect' : 'connect', startReadTimer);
  });
  outgoing.on('error', (error) => fail(codeOf(error), messageOf(error)));
  // A close without an error or a complete response still proves nothing came back.
  outgoing.on('close', () => fail('ECONNRESET', 'connection closed before a complete response'));
  outgoing.on('response', (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', (error) => fail(codeOf(error), messageOf(error)));
    response.on('end', () =>
      settle({
        kind: 'response',
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        durationMs: elapsed(),
      }),
    );
  });

  // Only now, with every listener attached: destroying an unattached request raises an unhandled error.
  if (request.signal?.aborted) return onAbort();
  request.signal?.addEventListener('abort', onAbort);
  outgoing.end(request.body);
}

/**
 * Under TLS 1.3 the client sees its handshake complete before the server has checked the client certificate,
 * so a server refusing our certificate (or having none) answers with an alert after `secureConnect`. Those
 * alerts exist only in the handshake: the server processed nothing, so the call counts as never connected.
 */
function isHandshakeRefusal(errorCode: string): boolean {
  return /^ERR_SSL_.*ALERT_(CERTIFICATE|BAD_CERTIFICATE|UNKNOWN_CA|HANDSHAKE_FAILURE|ACCESS_DENIED)/.test(errorCode);
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
