import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderHttpClient } from './provider-http.client.js';
import { SLOT_MISSED, sendThroughGate, type QuerySendGate } from './query-send-gate.js';

const servers: net.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** A provider that counts every byte it receives and answers each request with 200 on a kept-alive connection. */
async function countingProvider(): Promise<{ url: string; bytes: () => number; sockets: net.Socket[] }> {
  let bytes = 0;
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      bytes += chunk.length;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/things`, bytes: () => bytes, sockets };
}

/** Lets the provider's side read whatever was written, before counting it. */
const settle = () => new Promise((done) => setTimeout(done, 30));

describe.each(['kept-alive', 'fresh'] as const)('a request sent through a query gate, on %s connections', (connections) => {
  it('is never written when the gate refuses it: connect_failed, and the provider receives no byte', async () => {
    const provider = await countingProvider();
    const client = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 500 }, {}, connections);
    // A pooled socket first, so the refused request is the one handed a connection that is already up.
    await client.send({ method: 'GET', url: provider.url });
    await settle();
    const before = provider.bytes();

    const result = await sendThroughGate({ mayLeave: () => false }, () => client.send({ method: 'GET', url: provider.url }));
    await settle();

    expect(result).toMatchObject({ kind: 'connect_failed', errorCode: SLOT_MISSED });
    expect(provider.bytes()).toBe(before);
    provider.sockets.forEach((socket) => socket.destroy());
  });

  it('asks the gate once per request and sends the request when it allows', async () => {
    const provider = await countingProvider();
    const client = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 500 }, {}, connections);
    let asked = 0;
    const gate: QuerySendGate = { mayLeave: () => ++asked > 0 };

    const results = await sendThroughGate(gate, async () => [await client.send({ method: 'GET', url: provider.url }), await client.send({ method: 'GET', url: provider.url })]);

    expect(results).toMatchObject([{ kind: 'response', status: 200 }, { kind: 'response', status: 200 }]);
    expect(asked).toBe(2);
    provider.sockets.forEach((socket) => socket.destroy());
  });

  it('leaves a request outside any gate alone', async () => {
    const provider = await countingProvider();
    const client = new ProviderHttpClient({ connectTimeoutMs: 500, readTimeoutMs: 500 }, {}, connections);
    await sendThroughGate({ mayLeave: () => false }, () => Promise.resolve());

    expect(await client.send({ method: 'GET', url: provider.url })).toMatchObject({ kind: 'response', status: 200 });
    provider.sockets.forEach((socket) => socket.destroy());
  });
});
