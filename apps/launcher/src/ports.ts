import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export function readPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name] ?? String(fallback);
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return port;
}

/** True when something accepts a TCP connection on host:port within a second. */
export function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

export async function assertPortFree(port: number, name: string): Promise<void> {
  if (await portAnswers(port)) throw new Error(`port ${port} is already in use (another npm start?); set ${name} to another port`);
}

export async function waitForPort(port: number, what: string, timeoutMs: number, stopped: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopped() || (await portAnswers(port))) return;
    await sleep(200);
  }
  throw new Error(`${what} did not open port ${port} within ${timeoutMs / 1000}s`);
}

export async function waitForHealth(url: string, timeoutMs: number, stopped: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (stopped()) return;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 400)}`;
    } catch (error) {
      last = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message ?? String(error);
    }
    await sleep(500);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000}s (last: ${last}); are PostgreSQL and Redis up?`);
}
