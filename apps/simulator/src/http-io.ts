import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest body either server accepts; the simulator is not a place to test upload limits. */
const MAX_BODY_BYTES = 1_000_000;

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error('request body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Sends a JSON body (an object, or text already serialised) unless the client has gone. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed || response.headersSent) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function headerValue(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function requestUrl(request: IncomingMessage): URL {
  return new URL(request.url ?? '/', 'http://simulator.local');
}
