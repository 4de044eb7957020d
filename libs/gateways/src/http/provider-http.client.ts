import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import {
  codeOf,
  messageOf,
  startExchange,
  type ProviderHttpRequest,
  type ProviderHttpTimeouts,
  type ExchangeAgents,
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
 * A provider's connection pool: kept-alive sockets, at most MAX_SOCKETS at once (a call past it waits for one,
 * under its connect timeout), idle ones closed after IDLE_SOCKET_MS or sooner when the server announces a shorter
 * `Keep-Alive: timeout` (Node's agent honours it), to keep the race with the server's own idle close rare.
 */
const MAX_SOCKETS = 64;
const MAX_IDLE_SOCKETS = 16;
const IDLE_SOCKET_MS = 4_000;
const POOL = { keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_IDLE_SOCKETS, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' } as const;

/**
 * Makes exactly one HTTP request per call: no retries. With `kept-alive` connections, calls share this client's
 * pool (one client per provider); a reused socket that fails before any response byte is `no_response` (see
 * startExchange), so a connection the provider closed while idle costs a lookup, never a false "nothing was
 * sent". With `fresh` ones (the default), each call opens its own, and a refused connection is always
 * `connect_failed`. Never rejects: every failure is a `ProviderHttpResult`.
 */
export class ProviderHttpClient {
  private readonly agents: ExchangeAgents;

  constructor(
    private readonly timeouts: ProviderHttpTimeouts,
    private readonly tls: ProviderTlsOptions = {},
    connections: 'kept-alive' | 'fresh' = 'fresh',
  ) {
    this.agents = connections === 'kept-alive' && { http: new http.Agent(POOL), https: new https.Agent({ ...POOL, ...tls }) };
  }

  send(request: ProviderHttpRequest): Promise<ProviderHttpResult> {
    return new Promise((resolve) => {
      try {
        bufferedExchange(request, this.timeouts, this.tls, this.agents, resolve);
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
function bufferedExchange(
  request: ProviderHttpRequest,
  timeouts: ProviderHttpTimeouts,
  tls: ProviderTlsOptions,
  agents: ExchangeAgents,
  resolve: (result: ProviderHttpResult) => void,
): void {
  startExchange(request, timeouts, tls, agents, {
    failed: resolve,
    response: (response, { elapsed, fail, end }) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => fail(codeOf(error), messageOf(error)));
      response.on('end', () => {
        // The socket is back in the pool by now (or closed, when the server asked for that).
        if (!end()) return;
        resolve({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), durationMs: elapsed() });
      });
    },
  });
}
