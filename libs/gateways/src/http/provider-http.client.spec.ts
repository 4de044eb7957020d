import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT, ProviderHttpClient, READ_TIMEOUT } from './provider-http.client.js';

const client = new ProviderHttpClient({ connectTimeoutMs: 200, readTimeoutMs: 150 }, {}, 'kept-alive');
const servers: net.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    (server as http.Server).closeAllConnections?.();
    await new Promise((done) => server.close(done));
  }
});

async function listen(server: net.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function unusedPortUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return `http://127.0.0.1:${port}`;
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

describe('ProviderHttpClient', () => {
  it('returns the full response with status, headers and body', async () => {
    const url = await listen(
      http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => res.writeHead(201, { 'x-echo': req.headers['x-test'] ?? '' }).end(`got ${body}`));
      }),
    );

    const result = await client.send({ method: 'POST', url: `${url}/x`, headers: { 'x-test': 'yes' }, body: 'a=1' });

    expect(result).toMatchObject({ kind: 'response', status: 201, body: 'got a=1' });
    expect(result.kind === 'response' && result.headers['x-echo']).toBe('yes');
  });

  it('reports a refused connection as connect_failed', async () => {
    const result = await client.send({ method: 'GET', url: await unusedPortUrl() });

    expect(result).toMatchObject({ kind: 'connect_failed', errorCode: 'ECONNREFUSED' });
  });

  it('reports an unresolvable host as connect_failed', async () => {
    const result = await client.send({ method: 'GET', url: 'http://no-such-host.invalid/' });

    expect(result.kind).toBe('connect_failed');
    expect(['ENOTFOUND', 'EAI_AGAIN', CONNECT_TIMEOUT]).toContain(result.kind !== 'response' && result.errorCode);
  });

  it('counts a TLS handshake that never completes as a connect timeout: nothing was sent', async () => {
    // Reads (so it notices the client leaving) but never speaks TLS back.
    const silentTcp = await listen(net.createServer((socket) => socket.resume()));

    const result = await client.send({ method: 'POST', url: silentTcp.replace('http:', 'https:'), body: 'a=1' });

    expect(result).toMatchObject({ kind: 'connect_failed', errorCode: CONNECT_TIMEOUT });
  });

  it('reports a server that never answers as no_response after the read timeout', async () => {
    const url = await listen(http.createServer(() => undefined));

    const result = await client.send({ method: 'POST', url, body: 'a=1' });

    expect(result).toMatchObject({ kind: 'no_response', errorCode: READ_TIMEOUT });
    expect(result.durationMs).toBeGreaterThanOrEqual(140);
  });

  it('reports a connection reset after sending as no_response', async () => {
    const url = await listen(http.createServer((req) => req.socket.destroy()));

    const result = await client.send({ method: 'POST', url, body: 'a=1' });

    expect(result).toMatchObject({ kind: 'no_response', errorCode: 'ECONNRESET' });
  });

  it('reports a body cut off half way as no_response, not as a response', async () => {
    const url = await listen(
      http.createServer((_req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 20);
      }),
    );

    const result = await client.send({ method: 'GET', url });

    expect(result.kind).toBe('no_response');
  });

  it('times the read from the connection, so a slow body counts against the read timeout', async () => {
    const url = await listen(
      http.createServer((_req, res) => {
        res.writeHead(200);
        res.write('started');
      }),
    );

    const result = await client.send({ method: 'GET', url });

    expect(result).toMatchObject({ kind: 'no_response', errorCode: READ_TIMEOUT });
  });

  it('ends the call when the caller aborts', async () => {
    const url = await listen(http.createServer(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);

    const result = await new ProviderHttpClient({ connectTimeoutMs: 1000, readTimeoutMs: 5000 }).send({
      method: 'GET',
      url,
      signal: controller.signal,
    });

    expect(result).toMatchObject({ kind: 'no_response', errorCode: 'ABORTED' });
  });

  it('sends nothing when the signal is already aborted', async () => {
    let arrived = 0;
    const url = await listen(http.createServer((_req, res) => res.end(String((arrived += 1)))));

    const result = await client.send({ method: 'GET', url, signal: AbortSignal.abort() });
    await new Promise((done) => setTimeout(done, 30));

    expect(result).toMatchObject({ kind: 'connect_failed', errorCode: 'ABORTED' });
    expect(arrived).toBe(0);
  });

  it.each([
    ['kept-alive', [1, 0]],
    ['fresh', [0, 0]],
  ] as const)('leaves no timer behind after any outcome, and with %s connections %j sockets open (answering, silent server)', async (connections, expected) => {
    const answering = await listen(http.createServer((_req, res) => res.end('ok')));
    const silent = await listen(http.createServer(() => undefined));
    const timersBefore = activeTimers();
    const caller = new ProviderHttpClient({ connectTimeoutMs: 200, readTimeoutMs: 150 }, {}, connections);

    await Promise.all([
      caller.send({ method: 'GET', url: answering }),
      caller.send({ method: 'GET', url: silent }),
      caller.send({ method: 'GET', url: await unusedPortUrl() }),
    ]);

    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    await new Promise((done) => setTimeout(done, 30)); // lets the servers see the FIN
    const open = await Promise.all(servers.map((server) => new Promise<number>((done) => server.getConnections((_e, count) => done(count)))));
    expect(open).toEqual(expected);
  });

  it('reuses the kept-alive connection for the next call', async () => {
    const connections: net.Socket[] = [];
    const server = http.createServer((_req, res) => res.end('ok'));
    server.on('connection', (socket: net.Socket) => connections.push(socket));
    const url = await listen(server);

    for (let i = 0; i < 3; i++) expect(await client.send({ method: 'GET', url })).toMatchObject({ kind: 'response', status: 200 });

    expect(connections).toHaveLength(1);
  });
});
