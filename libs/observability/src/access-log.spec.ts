import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logRequests } from './access-log.js';

/** A Fastify app with the hot routes, a failing one and the probes, logging through a pino logger at `level`. */
async function appLoggingAt(level: string): Promise<{ lines: Array<Record<string, unknown>>; call: (method: 'GET' | 'POST', url: string) => Promise<void> }> {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  const http = Fastify();
  logRequests(http, pino({ level, serializers: pino.stdSerializers }, sink));
  http.post('/charges', () => ({ id: 'c1' }));
  http.post('/charges/:id/submit', (request, reply) => reply.code((request.params as { id: string }).id === 'broken' ? 503 : 200).send({}));
  http.get('/charges/:id', () => ({}));
  http.get('/health', () => ({ status: 'ok' }));
  await http.ready();
  return { lines, call: async (method, url) => void (await http.inject({ method, url, headers: { authorization: 'Bearer t' } })) };
}

describe('logRequests', () => {
  it('logs each request once with its status, but not the hot routes or the probes below debug', async () => {
    const { lines, call } = await appLoggingAt('info');
    await call('POST', '/charges');
    await call('POST', '/charges/c1/submit');
    await call('GET', '/health');
    await call('GET', '/charges/c1?x=1');
    await call('GET', '/nowhere');
    expect(lines.map((l) => [l.msg, (l.req as { url: string }).url, (l.res as { statusCode: number }).statusCode])).toEqual([
      ['request completed', '/charges/c1?x=1', 200],
      ['request completed', '/nowhere', 404],
    ]);
  });

  it('still logs a hot route that failed, at error', async () => {
    const { lines, call } = await appLoggingAt('info');
    await call('POST', '/charges/broken/submit');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 503 } });
  });

  it('logs the hot routes too at debug', async () => {
    const { lines, call } = await appLoggingAt('debug');
    await call('POST', '/charges');
    await call('POST', '/charges/c1/submit');
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(['/charges', '/charges/c1/submit']);
  });
});
