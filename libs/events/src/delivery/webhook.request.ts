import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';

const EXCERPT_BYTES = 1024;

/**
 * Kept-alive connections per receiver: a busy endpoint is not a TCP (and TLS) handshake per event. Reusing a socket
 * is safe: it was opened to an address a check approved, and every request is checked again before it is sent.
 */
const AGENTS = { 'http:': new HttpAgent({ keepAlive: true, maxFreeSockets: 16 }), 'https:': new HttpsAgent({ keepAlive: true, maxFreeSockets: 16 }) };

export interface WebhookAnswer {
  httpStatus: number | null;
  durationMs: number;
  /** Why no status came back (timeout, reset, refused), or null. */
  error: string | null;
  /** The first 1 KiB of the answer, for the merchant reading its deliveries. */
  excerpt: string | null;
}

/**
 * One POST to a merchant's receiver, connected to `address` (the one the URL check resolved and approved, so a
 * second DNS answer cannot send it elsewhere) with the URL's own name for Host and TLS. Everything must be over
 * within `timeoutMs`; the answer is read no further than its first 1 KiB.
 */
export function postWebhook(url: URL, address: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<WebhookAnswer> {
  const started = performance.now();
  const pinned: LookupFunction = (_host, options, callback) => {
    const family = isIP(address);
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<WebhookAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, durationMs: performance.now() - started });
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, agent: AGENTS[url.protocol as 'http:' | 'https:'] },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) res.destroy();
        });
        const done = () => finish({ httpStatus: res.statusCode ?? null, error: null, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ httpStatus: null, error: `no answer within ${timeoutMs} ms`, excerpt: null });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ httpStatus: null, error: error.code ?? error.message, excerpt: null }));
    req.end(body);
  });
}
