import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const carried = new WeakSet<Socket>();

/** Whether this request's connection carried an earlier create (a kept-alive connection the client reused); marks it. */
export function arrivedOnReusedConnection(request: IncomingMessage): boolean {
  const reused = carried.has(request.socket);
  carried.add(request.socket);
  return reused;
}
