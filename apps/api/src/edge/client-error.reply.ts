import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What the api answers when Node's HTTP parser refuses a request before Fastify sees it: a request line or
 * headers past Node's 16 kB (a 100 kB query string), a malformed request, a client too slow to send it. Fastify's
 * own answer has no `code`; this is the one error shape, so clients branch on `code` here too.
 */
export function clientErrorReply(error: { code?: string }): { status: number; body: string } {
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'the request line and headers exceed the allowed size (a query string that long belongs in a body)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request was not received in time']
        : [400, 'bad_request', 'the request is not well-formed HTTP'];
  return { status, body: JSON.stringify({ statusCode: status, error: STATUS_CODES[status], code, message }) };
}

/** Fastify's clientErrorHandler: Node's own behaviour (answer if the socket still takes it, then close). */
export function replyToClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = clientErrorReply(error);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
