import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { currentSendGate, SLOT_MISSED } from './query-send-gate.js';

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
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Aborting ends the call at once; it settles like a failure of the phase it was in. */
  signal?: AbortSignal;
}

export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';
export const READ_TIMEOUT = 'READ_TIMEOUT';
export const ABORTED = 'ABORTED';

/** The call ended without a response: `connect_failed` proves the request never left, `no_response` does not. */
export type TransportFailure = { kind: 'connect_failed' | 'no_response'; errorCode: string; message: string; durationMs: number };

/** What a response handler may do with the exchange it was handed. */
export interface ExchangeControl {
  elapsed(): number;
  /** Ends the exchange as a transport failure; a no-op once it has ended. */
  fail(errorCode: string, message: string): void;
  /** Ends the exchange with a response: stops the timers and the abort listener. False when it had already ended. */
  end(): boolean;
}

/** The connections an exchange may use: a provider's keep-alive pools, or `false` for a fresh connection. */
export type ExchangeAgents = { http: http.Agent; https: https.Agent } | false;

/**
 * One request, on a pooled kept-alive connection or a fresh one. The connect timeout runs until the request has
 * a connected socket (waiting for a free one in a full pool included: nothing has been written yet), then the
 * read timeout runs until the handler ends the exchange. A reused socket counts as connected from the moment it
 * is handed over: a reset or close on it before any response byte is `no_response`, never `connect_failed`, as
 * the request may have left. Every way the call can end without a response (error, close, timeout, abort) is one
 * `TransportFailure`, judged by whether the request could have left.
 * The shared part of a buffered call and a streamed one; they differ only in what they do with the response.
 */
export function startExchange(
  request: ProviderHttpRequest,
  timeouts: ProviderHttpTimeouts,
  tls: ProviderTlsOptions,
  agents: ExchangeAgents,
  handlers: { failed(failure: TransportFailure): void; response(response: IncomingMessage, control: ExchangeControl): void },
): void {
  const startedAt = performance.now();
  const gate = currentSendGate();
  const url = new URL(request.url);
  const isHttps = url.protocol === 'https:';
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);

  let connected = false;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const elapsed = () => Math.round(performance.now() - startedAt);

  const outgoing = isHttps
    ? https.request(url, { method: request.method, headers, agent: agents && agents.https, ...tls })
    : http.request(url, { method: request.method, headers, agent: agents && agents.http });

  const end = (): boolean => {
    if (ended) return false;
    ended = true;
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    return true;
  };
  const fail = (errorCode: string, message: string) => {
    if (!end()) return;
    outgoing.destroy();
    handlers.failed({ kind: connected && !isHandshakeRefusal(errorCode) ? 'no_response' : 'connect_failed', errorCode, message, durationMs: elapsed() });
  };
  const onAbort = () => fail(ABORTED, 'request aborted by the caller');

  const startReadTimer = () => {
    connected = true;
    clearTimeout(timer);
    timer = setTimeout(() => fail(READ_TIMEOUT, `no complete response within ${timeouts.readTimeoutMs} ms`), timeouts.readTimeoutMs);
  };
  timer = setTimeout(() => fail(CONNECT_TIMEOUT, `could not connect within ${timeouts.connectTimeoutMs} ms`), timeouts.connectTimeoutMs);
  // Node writes the request right after these listeners run (a pooled socket: after 'socket'; a new one: after
  // its connect): the gate's last word comes before any byte, so a refusal is a call that never left.
  const connectedNow = () => {
    if (gate && !gate.mayLeave()) return fail(SLOT_MISSED, 'the query slot passed before the request could be written');
    startReadTimer();
  };
  outgoing.on('socket', (socket: Socket) => {
    // TLS counts as part of connecting: a failed handshake means the request was never sent. A pooled socket
    // is already connected (and encrypted), so the read timer starts at once: the request goes out on it now.
    if (!socket.connecting && (!isHttps || (socket as { encrypted?: boolean }).encrypted)) connectedNow();
    else socket.once(isHttps ? 'secureConnect' : 'connect', connectedNow);
  });
  outgoing.on('error', (error) => fail(codeOf(error), messageOf(error)));
  // A close without an error or a complete response still proves nothing came back.
  outgoing.on('close', () => fail('ECONNRESET', 'connection closed before a complete response'));
  outgoing.on('response', (response: IncomingMessage) => {
    if (ended) return void response.destroy();
    handlers.response(response, { elapsed, fail, end });
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

export function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
